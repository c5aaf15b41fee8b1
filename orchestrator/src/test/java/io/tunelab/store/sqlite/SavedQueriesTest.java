package io.tunelab.store.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.TunelabException;
import io.tunelab.report.Studies;
import io.tunelab.store.Fixtures;
import io.tunelab.store.ResultTable;
import io.tunelab.store.sql.BundledSql;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/** Every saved example query in db/queries runs on a real database and finds something. */
class SavedQueriesTest {
  /**
   * The values the saved queries ask for: the two read-ahead runs (the reader-vs-writer study is
   * 1).
   */
  private static final Map<String, String> PARAMS =
      Map.of("experiment", "3", "base", "2", "new", "3");

  @TempDir static Path dir;
  static Path db;

  @BeforeAll
  static void buildDatabase() {
    db = dir.resolve("study.db");
    try (JdbcResultStore store = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      // Two jobs with monitors first, for the queries on processes, monitors and kept output;
      // the latest experiments are the two read-ahead runs the other queries look at.
      Studies.readerVsWriter(store);
      Fixtures.readaheadStudy(store);
    }
  }

  @TestFactory
  List<DynamicTest> everySavedQueryReturnsRows() {
    List<String> files = BundledSql.list("queries/");
    assertTrue(files.size() >= 4, "at least four saved queries: " + files);
    return files.stream()
        .map(
            file ->
                DynamicTest.dynamicTest(
                    file,
                    () -> {
                      String sql = BundledSql.read("queries/" + file);
                      assertTrue(
                          sql.startsWith("-- "),
                          file + " starts with a comment saying what it shows");
                      ResultTable result = SqliteQueryRunner.query(db, sql, PARAMS);
                      assertFalse(result.rows().isEmpty(), file + " returned no rows");
                    }))
        .toList();
  }

  @Test
  void theComparisonQueryMatchesCellsByLabel() {
    ResultTable t =
        SqliteQueryRunner.query(db, BundledSql.read("queries/07-compare-two.sql"), PARAMS);

    assertEquals(List.of("label", "base", "new", "change"), t.columns());
    assertEquals(4, t.rows().size());
    // case=default/bs=32M: 16.625, 16.75, 16.875 s before, two seconds less after.
    assertEquals(List.of("case=default/bs=32M", 61.137, 69.427, "+13.6%"), t.rows().get(0));
  }

  @Test
  void everyValueASavedQueryWantsIsAParameter() {
    for (String file : BundledSql.list("queries/")) {
      String sql = BundledSql.read("queries/" + file);
      assertFalse(sql.contains("max(id)"), file + " picks the latest experiment itself");
      for (String name : List.of(":experiment", ":base", ":new")) {
        if (sql.contains(name)) {
          // Without the value the query says which one it needs.
          Exception e =
              assertThrows(
                  TunelabException.class, () -> SqliteQueryRunner.query(db, sql, Map.of()));
          assertTrue(e.getMessage().contains(name), file + ": " + e.getMessage());
        }
      }
    }
  }

  @Test
  void everySavedQueryIsShownInTheSqlGuide() throws Exception {
    String root = System.getenv("TUNELAB_ROOT");
    Path guide = Path.of(root == null ? ".." : root, "docs", "sql.md");
    String text = Files.readString(guide);
    for (String file : BundledSql.list("queries/")) {
      String sql = BundledSql.read("queries/" + file).strip();
      assertTrue(text.contains(sql), "docs/sql.md shows db/queries/" + file + " verbatim");
      assertTrue(text.contains("db/queries/" + file), "docs/sql.md names db/queries/" + file);
    }
  }
}
