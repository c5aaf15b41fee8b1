package io.tunelab.store.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.TunelabException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One read statement, its {@code :name}s, and what only looks like them. */
class PostgresStatementTextTest {
  @Test
  void namedParametersBecomePlaceholdersAndCastsStayCasts() {
    PostgresStatementText t =
        PostgresStatementText.of(
            "select mean::numeric, ':not' as s, $$ :nor $$ as d -- :nor here\n"
                + "from cell_results where experiment_id = :e and job = :job limit :n;");
    assertEquals(List.of(":e", ":job", ":n"), t.parameters());
    assertTrue(t.text().contains("mean::numeric"), t.text());
    assertTrue(t.text().endsWith("experiment_id = ? and job = ? limit ?"), t.text());
  }

  @Test
  void onlyOneStatementThatReads() {
    for (String sql :
        List.of(
            "select 1; commit; delete from trials",
            "select 1; -- fine\n select 2",
            "delete from trials",
            "update trials set status = 'ok'",
            "set default_transaction_read_only = off",
            "")) {
      TunelabException e =
          assertThrows(TunelabException.class, () -> PostgresStatementText.of(sql), sql);
      assertEquals(TunelabException.BAD_INPUT, e.exitCode());
    }
    assertEquals(
        "with x as (select 1) select * from x",
        PostgresStatementText.of(" with x as (select 1) select * from x ; -- done")
            .text()
            .replace(" -- done", "")
            .strip());
    PostgresStatementText.of("(select 1) union (select 2)");
    PostgresStatementText.of("explain select 1");
    PostgresStatementText.of("select ';' as semicolon, \"odd;name\" from t");
  }

  @Test
  void aDollarSignInANameOrABackslashInAnEscapeStringHidesNoSecondStatement() {
    for (String sql :
        List.of(
            "SELECT 1 AS a$x$; COMMIT; UPDATE queue SET state = 'done'; SELECT 1 AS b$x$",
            "SELECT E'\\''; COMMIT; DELETE FROM queue; -- '",
            "select e'\\''; commit; delete from queue; -- '")) {
      TunelabException e =
          assertThrows(TunelabException.class, () -> PostgresStatementText.of(sql), sql);
      assertTrue(e.getMessage().contains("one SQL statement"), e.getMessage());
    }
    assertEquals("select 1 as a$x$", PostgresStatementText.of("select 1 as a$x$").text());
    assertEquals(
        "select E'it\\'s', 'plain\\' as p",
        PostgresStatementText.of("select E'it\\'s', 'plain\\' as p").text());
  }

  @Test
  void locksHeldPastTheStatementAndSignalsToOtherSessionsAreRefused() {
    for (String sql :
        List.of(
            "select pg_advisory_lock(7)",
            "select PG_TRY_ADVISORY_LOCK_SHARED(1, 2)",
            "select pg_terminate_backend(pid) from pg_stat_activity",
            "select pg_cancel_backend(1)")) {
      TunelabException e =
          assertThrows(TunelabException.class, () -> PostgresStatementText.of(sql), sql);
      assertEquals(TunelabException.BAD_INPUT, e.exitCode());
      assertTrue(e.getMessage().contains("does not run pg_"), e.getMessage());
    }
  }
}
