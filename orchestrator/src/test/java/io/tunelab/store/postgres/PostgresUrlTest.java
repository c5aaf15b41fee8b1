package io.tunelab.store.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.TunelabException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code postgresql://} URLs as libpq reads them, and the password kept out of them. */
class PostgresUrlTest {
  @Test
  void aUrlGivesItsPartsAndDefaultsAsLibpqDoes() {
    PostgresUrl u = PostgresUrl.parse("postgresql://perf@db1:6432/nightly", Map.of());
    assertEquals(new PostgresUrl("perf", "db1", 6432, "nightly"), u);
    assertEquals("jdbc:postgresql://db1:6432/nightly", u.jdbcUrl());

    PostgresUrl d = PostgresUrl.parse("postgres://db1/nightly", Map.of("PGUSER", "team"));
    assertEquals(new PostgresUrl("team", "db1", 5432, "nightly"), d);
    assertEquals("postgresql://team@db1:5432/nightly", d.toString());

    PostgresUrl v6 = PostgresUrl.parse("postgresql://perf@[::1]:55432/t", Map.of());
    assertEquals("jdbc:postgresql://[::1]:55432/t", v6.jdbcUrl());
  }

  @Test
  void thePasswordComesFromPgpasswordAndNeverFromTheUrl() {
    PostgresUrl u = PostgresUrl.parse("postgresql://perf@db1/n", Map.of());
    assertEquals("s3cret", u.properties(Map.of("PGPASSWORD", "s3cret")).getProperty("password"));
    assertFalse(u.properties(Map.of()).containsKey("password"));

    TunelabException e =
        assertThrows(
            TunelabException.class,
            () -> PostgresUrl.parse("postgresql://perf:s3cret@db1/n", Map.of()));
    assertEquals(TunelabException.BAD_INPUT, e.exitCode());
    assertFalse(e.getMessage().contains("s3cret"), e.getMessage());
    assertTrue(e.getMessage().contains("~/.pgpass"), e.getMessage());
  }

  @Test
  void aUrlWithoutHostOrDatabaseOrWithOptionsIsRefused() {
    for (String bad :
        new String[] {
          "postgresql:///n",
          "postgresql://perf@db1",
          "postgresql://perf@db1/",
          "postgresql://db1/n?connect_timeout=3",
          "postgresql://db1/n?sslmode=",
          "postgresql://db1/n?sslmode=verify-all",
          "postgresql://db1/a/b"
        }) {
      TunelabException e =
          assertThrows(TunelabException.class, () -> PostgresUrl.parse(bad, Map.of()), bad);
      assertEquals(TunelabException.BAD_INPUT, e.exitCode(), bad);
      assertTrue(e.getMessage().startsWith("cannot use database " + bad), e.getMessage());
    }
    assertTrue(PostgresUrl.isUrl("postgresql://x/y"));
    assertFalse(PostgresUrl.isUrl("./postgresql.db"));
  }

  @Test
  void tlsComesFromTheUrlElseFromPgsslmodeAndPgsslrootcertAsLibpqReadsThem() {
    PostgresUrl u =
        PostgresUrl.parse(
            "postgresql://perf@db1/n?sslmode=verify-full&sslrootcert=/etc/team/ca.crt",
            Map.of("PGSSLMODE", "disable"));
    assertEquals("verify-full", u.sslMode());
    assertEquals("verify-full", u.properties(Map.of()).getProperty("sslmode"));
    assertEquals("/etc/team/ca.crt", u.properties(Map.of()).getProperty("sslrootcert"));
    assertEquals(
        "postgresql://perf@db1:5432/n?sslmode=verify-full&sslrootcert=/etc/team/ca.crt",
        u.toString());

    PostgresUrl e =
        PostgresUrl.parse(
            "postgresql://perf@db1/n",
            Map.of("PGSSLMODE", "require", "PGSSLROOTCERT", "/root/ca.crt"));
    assertEquals("require", e.properties(Map.of()).getProperty("sslmode"));
    assertEquals("/root/ca.crt", e.sslRootCert());

    PostgresUrl none = PostgresUrl.parse("postgresql://perf@db1/n", Map.of());
    assertFalse(none.properties(Map.of()).containsKey("sslmode"));

    TunelabException bad =
        assertThrows(
            TunelabException.class,
            () -> PostgresUrl.parse("postgresql://perf@db1/n", Map.of("PGSSLMODE", "on")));
    assertTrue(bad.getMessage().contains("sslmode on (PGSSLMODE) is not one of"), bad.getMessage());
  }

  @Test
  void aPasswordInAUrlThatDoesNotParseIsNotPrintedEither() {
    for (String url :
        new String[] {
          "postgresql://perf:p@ss w0rd@db1/n",
          "postgresql://perf:s3cr/et@db1/n",
          "postgresql://perf:^x@db1/n"
        }) {
      TunelabException e =
          assertThrows(TunelabException.class, () -> PostgresUrl.parse(url, Map.of()), url);
      assertEquals(TunelabException.BAD_INPUT, e.exitCode());
      assertFalse(e.getMessage().contains("w0rd"), e.getMessage());
      assertFalse(e.getMessage().contains("et@"), e.getMessage());
      assertFalse(e.getMessage().contains("^x"), e.getMessage());
      assertTrue(
          e.getMessage().startsWith("cannot use database postgresql://perf:…@"), e.getMessage());
    }
  }
}
