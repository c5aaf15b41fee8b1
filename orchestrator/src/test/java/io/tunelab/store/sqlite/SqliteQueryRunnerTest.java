package io.tunelab.store.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.TunelabException;
import io.tunelab.store.Fixtures;
import io.tunelab.store.ResultTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteQueryRunnerTest {
  @TempDir Path dir;
  Path db;

  @BeforeEach
  void buildDatabase() {
    db = dir.resolve("q.db");
    try (JdbcResultStore store = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      Fixtures.readaheadStudy(store);
    }
  }

  private ResultTable run(String sql) {
    return JdbcResultStore.query(db, sql);
  }

  private TunelabException refused(String sql) {
    TunelabException e = assertThrows(TunelabException.class, () -> run(sql));
    assertEquals(TunelabException.BAD_INPUT, e.exitCode());
    return e;
  }

  @Test
  void valuesKeepTheirSqlTypes() {
    ResultTable t =
        run("SELECT 1 AS one, 2.5 AS half, 'x;y' AS text, NULL AS missing, 1 << 40 AS big");

    assertEquals(List.of("one", "half", "text", "missing", "big"), t.columns());
    assertEquals(List.of(Arrays.asList(1L, 2.5, "x;y", null, 1L << 40)), t.rows());
  }

  @Test
  void aTrailingSemicolonAndCommentsAreFine() {
    ResultTable t =
        run("-- how many\n/* experiments; */ SELECT count(*) AS n FROM experiments;  -- done\n;");

    assertEquals(List.of(List.of(2L)), t.rows());
  }

  @Test
  void anEmptyResultKeepsItsColumns() {
    ResultTable t = run("SELECT id, name FROM experiments WHERE id < 0");

    assertEquals(List.of("id", "name"), t.columns());
    assertEquals(List.of(), t.rows());
  }

  @Test
  void writesAreRefused() {
    for (String sql :
        List.of(
            "DELETE FROM trials",
            "UPDATE experiments SET name = 'x'",
            "CREATE TABLE mine (a)",
            "DROP VIEW cell_results")) {
      assertEquals(
          "tunelab query is read-only: this statement would change " + db,
          refused(sql).getMessage(),
          sql);
    }
    assertEquals(List.of(List.of(32L)), run("SELECT count(*) FROM trials").rows());
  }

  @Test
  void onlyOneStatementRuns() {
    assertEquals(
        "tunelab query runs one SQL statement; found more than one",
        refused("SELECT 1; DELETE FROM trials").getMessage());
    assertEquals("no SQL statement given", refused(" -- nothing\n ;").getMessage());
  }

  @Test
  void semicolonsInsideQuotesDoNotEndTheStatement() {
    assertEquals(
        List.of(List.of("a;b", "c;d", "e")),
        run("SELECT 'a;b' AS \"x;y\", \"c;d\", [e] FROM (SELECT 'c;d' AS \"c;d\", 'e' AS e)")
            .rows());
  }

  @Test
  void aMissingDatabaseIsNotCreated() {
    Path missing = dir.resolve("missing.db");
    TunelabException e =
        assertThrows(TunelabException.class, () -> JdbcResultStore.query(missing, "SELECT 1"));
    assertEquals(TunelabException.BAD_INPUT, e.exitCode());
    assertFalse(Files.exists(missing));
  }

  @Test
  void badSqlSaysWhy() {
    assertEquals(
        "query failed: no such table: nowhere", refused("SELECT * FROM nowhere").getMessage());
  }

  private ResultTable run(String sql, Map<String, String> params) {
    return SqliteQueryRunner.query(db, sql, params);
  }

  private TunelabException refused(String sql, Map<String, String> params) {
    TunelabException e = assertThrows(TunelabException.class, () -> run(sql, params));
    assertEquals(TunelabException.BAD_INPUT, e.exitCode());
    return e;
  }

  @Test
  void vacuumIntoWritesNoFile() {
    Path copy = dir.resolve("copy.db");
    assertEquals(
        "tunelab query runs only read statements (SELECT, WITH … SELECT, VALUES, EXPLAIN,"
            + " read-only PRAGMAs), not VACUUM",
        refused("VACUUM INTO '" + copy + "'").getMessage());
    assertFalse(Files.exists(copy));
    // Behind a comment, in lower case, explained: still no file.
    refused("/* backup */ vacuum into '" + copy + "';");
    refused("EXPLAIN VACUUM INTO '" + copy + "'");
    assertFalse(Files.exists(copy));
  }

  @Test
  void attachAndOtherNonReadsAreRefused() {
    Path other = dir.resolve("other.db");
    for (String sql :
        List.of(
            "ATTACH DATABASE '" + other + "' AS other",
            "DETACH other",
            "BEGIN",
            "SAVEPOINT x",
            "SELEKT 1")) {
      String word = sql.split(" ")[0];
      assertEquals(
          "tunelab query runs only read statements (SELECT, WITH … SELECT, VALUES, EXPLAIN,"
              + " read-only PRAGMAs), not "
              + word,
          refused(sql).getMessage(),
          sql);
    }
    assertFalse(Files.exists(other));
  }

  @Test
  void aWriteBehindWithIsRefusedBeforeItRuns() {
    String wouldChange = "tunelab query is read-only: this statement would change " + db;
    for (String sql :
        List.of(
            "WITH doomed AS (SELECT id FROM trials) DELETE FROM trials WHERE id IN doomed",
            "WITH x(n) AS (VALUES (1)) INSERT INTO experiments(name) SELECT 'x' FROM x",
            "REPLACE INTO variables VALUES (1, 'a', 'b')",
            "EXPLAIN DELETE FROM trials",
            "ALTER TABLE trials ADD COLUMN x")) {
      assertEquals(wouldChange, refused(sql).getMessage(), sql);
    }
    assertEquals(List.of(List.of(32L)), run("SELECT count(*) FROM trials").rows());
  }

  @Test
  void theCompiledProgramIsCheckedEvenOnAWritableConnection() throws Exception {
    // Only the EXPLAIN check stands between a writable connection and the write.
    try (Connection c = SqliteConnections.openWritable(db)) {
      for (String sql :
          List.of(
              "WITH doomed AS (SELECT id FROM trials) DELETE FROM trials WHERE id IN doomed",
              "WITH n AS (SELECT 1) UPDATE experiments SET name = 'x'",
              "WITH x(n) AS (VALUES (1)) INSERT INTO experiments(name) SELECT 'x' FROM x")) {
        TunelabException e =
            assertThrows(
                TunelabException.class, () -> SqliteQueryRunner.requireOnlyReads(c, sql, db));
        assertEquals(
            "tunelab query is read-only: this statement would change " + db, e.getMessage());
      }
      SqliteQueryRunner.requireOnlyReads(
          c, "WITH e AS (SELECT id FROM trials) SELECT * FROM e", db);
      SqliteQueryRunner.requireOnlyReads(c, "VALUES (1)", db);
    }
    assertEquals(List.of(List.of(32L)), run("SELECT count(*) FROM trials").rows());
  }

  @Test
  void aStoreOpenedForWritingRunsWhatTunelabGivesIt() {
    try (JdbcResultStore store = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      store.query("DELETE FROM variables");
    }
    assertEquals(List.of(List.of(0L)), run("SELECT count(*) FROM variables").rows());
  }

  @Test
  void readStatementsOfEveryKindRun() {
    assertEquals(List.of(List.of(1L), List.of(2L)), run("VALUES (1), (2)").rows());
    assertEquals(
        List.of(List.of(2L)),
        run("WITH e AS (SELECT id FROM experiments) SELECT count(*) FROM e").rows());
    assertFalse(run("EXPLAIN QUERY PLAN SELECT * FROM trials WHERE id = 3").rows().isEmpty());
    assertFalse(run("EXPLAIN SELECT 1").rows().isEmpty());
    assertTrue(run("PRAGMA table_info(cells)").rows().stream().anyMatch(r -> r.contains("label")));
    assertTrue(run("pragma main.index_list('trials')").columns().contains("name"));
    assertEquals(List.of("user_version"), run("PRAGMA user_version;").columns());
    assertEquals(List.of(List.of("ok")), run("PRAGMA quick_check").rows());
    assertFalse(run("SELECT name FROM pragma_table_info('cells')").rows().isEmpty());
  }

  @Test
  void pragmasThatSetOrAreNotListedAreRefused() {
    assertEquals(
        "tunelab query is read-only: PRAGMA user_version is run only to read, as PRAGMA"
            + " user_version without a value",
        refused("PRAGMA user_version = 7").getMessage());
    refused("PRAGMA user_version(7)");
    refused("PRAGMA journal_mode=DELETE");
    assertEquals(
        "tunelab query is read-only: PRAGMA table_info is run only to read, as PRAGMA"
            + " table_info or PRAGMA table_info(NAME)",
        refused("PRAGMA table_info(cells) = 1").getMessage());
    refused("PRAGMA table_info(cells, trials)");
    for (String name :
        List.of("wal_checkpoint", "optimize", "incremental_vacuum", "writable_schema")) {
      assertEquals(
          "tunelab query runs only the PRAGMAs that read (docs/sql.md lists them), not PRAGMA "
              + name,
          refused("PRAGMA " + name).getMessage());
    }
    assertEquals(List.of(List.of(0L)), run("PRAGMA user_version").rows());
  }

  @Test
  void namedParametersAreBoundAsNumbersOrText() {
    ResultTable t =
        run(
            "SELECT :n + 1 AS n, typeof(:r) AS r, typeof(:t) AS t, $n AS dollar, @t AS at,"
                + " typeof(:z) AS zeros, ':n' AS quoted -- :n in a comment",
            Map.of("n", "41", "r", "2.5", "t", "64M", "z", "007", "unused", "x"));

    assertEquals(List.of(Arrays.asList(42L, "real", "text", 41L, "64M", "text", ":n")), t.rows());
    // Numbers compare with integer columns and serve as a LIMIT.
    assertEquals(
        run("SELECT count(*) FROM trials WHERE experiment_id = 2 AND rep = 1").rows(),
        run(
                "SELECT count(*) FROM trials WHERE experiment_id = :e AND rep = :rep LIMIT :one",
                Map.of("e", "2", "rep", "1", "one", "1"))
            .rows());
  }

  @Test
  void aParameterWithoutValueIsAnError() {
    assertEquals(
        "the statement's parameter :experiment has no value: give --param experiment=VALUE",
        refused("SELECT * FROM cell_results WHERE experiment_id = :experiment", Map.of())
            .getMessage());
    assertEquals(
        "the statement's parameters :base, $new have no value: give --param base=VALUE"
            + " --param new=VALUE",
        refused("SELECT :base, $new, :base", Map.of("experiment", "1")).getMessage());
    assertEquals(
        "tunelab query binds named parameters only: write :name instead of ? and give"
            + " --param name=VALUE",
        refused("SELECT * FROM trials WHERE id = ?", Map.of()).getMessage());
  }
}
