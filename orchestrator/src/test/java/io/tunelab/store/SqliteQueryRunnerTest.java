package io.tunelab.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tunelab.TunelabException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteQueryRunnerTest {
  @TempDir Path dir;
  Path db;

  @BeforeEach
  void buildDatabase() {
    db = dir.resolve("q.db");
    try (SqliteResultStore store = SqliteResultStore.open(db, Fixtures.CLOCK)) {
      Fixtures.readaheadStudy(store);
    }
  }

  private ResultTable run(String sql) {
    return SqliteResultStore.query(db, sql);
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
        assertThrows(TunelabException.class, () -> SqliteResultStore.query(missing, "SELECT 1"));
    assertEquals(TunelabException.BAD_INPUT, e.exitCode());
    assertFalse(Files.exists(missing));
  }

  @Test
  void badSqlSaysWhy() {
    assertEquals(
        "query failed: no such table: nowhere", refused("SELECT * FROM nowhere").getMessage());
  }
}
