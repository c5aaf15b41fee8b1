package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Integration;
import io.tunelab.testing.TestTime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS required and checked as libpq users expect it, against {@code lab/postgres} and the CA it
 * made: {@code ?sslmode=verify-full} or {@code PGSSLMODE}, a certificate for another name or from
 * another CA refused; and the database's password kept from local workloads.
 */
@Integration
class PostgresTlsTest {
  @RegisterExtension static final PostgresLab lab = new PostgresLab();
  @TempDir Path dir;

  private static final String ON_TLS = "select ssl from pg_stat_ssl where pid = pg_backend_pid()";

  @Test
  void verifyFullWithTheLabCaConnectsOverTlsFromTheUrlOrFromPgsslmode() throws Exception {
    String url = lab.freshDatabase();
    Path m = dir.resolve("tls.yaml");
    Files.writeString(m, "name: tls\nworkload:\n  command: sleep 0\n");
    String verified = url + "?sslmode=verify-full&sslrootcert=" + lab.caCertificate();
    Result run = tunelab(Map.of(), "run", m.toString(), "--db", verified);
    assertEquals(0, run.code(), run.out());
    assertTrue(run.out().contains("1 ok, 0 failed"), run.out());

    Result byUrl = tunelab(Map.of(), "query", ON_TLS, "--format", "csv", "--db", verified);
    assertEquals(0, byUrl.code(), byUrl.out());
    assertTrue(byUrl.out().matches("(?s)ssl\\s+t(rue)?\\s*"), byUrl.out());

    Result byEnv =
        tunelab(
            Map.of("PGSSLMODE", "verify-full", "PGSSLROOTCERT", lab.caCertificate().toString()),
            "query",
            ON_TLS,
            "--format",
            "csv",
            "--db",
            url);
    assertEquals(0, byEnv.code(), byEnv.out());
    assertTrue(byEnv.out().matches("(?s)ssl\\s+t(rue)?\\s*"), byEnv.out());
  }

  @Test
  void verifyFullRefusesANameTheCertificateDoesNotHoldAndACertificateFromAnotherCa()
      throws Exception {
    String url = lab.freshDatabase();
    String byName = url.replace("127.0.0.1", "localhost");
    Result name =
        tunelab(
            Map.of(),
            "status",
            "--db",
            byName + "?sslmode=verify-full&sslrootcert=" + lab.caCertificate());
    assertNotEquals(0, name.code(), name.out());
    assertTrue(name.out().contains("cannot connect to database"), name.out());

    Path otherCa = dir.resolve("other-ca.crt");
    Process p =
        new ProcessBuilder(
                "openssl",
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-days",
                "1",
                "-subj",
                "/CN=another CA",
                "-keyout",
                dir.resolve("other-ca.key").toString(),
                "-out",
                otherCa.toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("openssl.log").toFile())
            .start();
    assertTrue(p.waitFor(TestTime.seconds(60), TimeUnit.SECONDS) && p.exitValue() == 0);
    Result ca =
        tunelab(Map.of(), "status", "--db", url + "?sslmode=verify-full&sslrootcert=" + otherCa);
    assertNotEquals(0, ca.code(), ca.out());
    assertTrue(ca.out().contains("cannot connect to database"), ca.out());
  }

  @Test
  void aLocalWorkloadSeesNoneOfTheDatabasesSecrets() throws Exception {
    String url = lab.freshDatabase();
    Path m = dir.resolve("secrets.yaml");
    Files.writeString(
        m, "name: secrets\nworkload:\n  command: test -z \"$PGPASSWORD$PGPASSFILE$PGSSLKEY\"\n");
    String password = Files.readString(Path.of(lab.pgpass())).lines().findFirst().orElseThrow();
    password = password.substring(password.lastIndexOf(':') + 1);
    Result run =
        tunelab(
            Map.of("PGPASSWORD", password, "PGSSLKEY", "/nonexistent/client.key"),
            "run",
            m.toString(),
            "--db",
            url);
    assertEquals(0, run.code(), run.out());
    assertTrue(run.out().contains("1 ok, 0 failed"), run.out());
    assertFalse(run.out().contains(password), run.out());
  }

  private record Result(int code, String out) {}

  /** The CLI as a process of its own, with {@code env} added to this JVM's environment. */
  private Result tunelab(Map<String, String> env, String... args) throws Exception {
    ProcessBuilder pb = Controller.tunelab(args);
    pb.environment().put("PGPASSFILE", lab.pgpass());
    pb.environment().putAll(env);
    pb.environment().put("XDG_STATE_HOME", dir.resolve("xdg-state").toString());
    pb.directory(dir.toFile());
    Path log = dir.resolve("tunelab-" + System.nanoTime() + ".log");
    Process p = pb.redirectErrorStream(true).redirectOutput(log.toFile()).start();
    assertTrue(p.waitFor(TestTime.seconds(120), TimeUnit.SECONDS), "tunelab " + args[0]);
    return new Result(p.exitValue(), Files.readString(log));
  }
}
