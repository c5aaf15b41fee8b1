package io.tunelab.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.report.Studies;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/** Every saved example query in db/queries runs on a real database and finds something. */
class SavedQueriesTest {
  @TempDir static Path dir;
  static Path db;

  @BeforeAll
  static void buildDatabase() {
    db = dir.resolve("study.db");
    try (SqliteResultStore store = SqliteResultStore.open(db, Fixtures.CLOCK)) {
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
                      try (SqliteResultStore store = SqliteResultStore.openReadOnly(db)) {
                        ResultTable result = store.query(sql);
                        assertFalse(result.rows().isEmpty(), file + " returned no rows");
                      }
                    }))
        .toList();
  }

  @Test
  void theComparisonQueryMatchesCellsByLabel() {
    try (SqliteResultStore store = SqliteResultStore.openReadOnly(db)) {
      ResultTable t = store.query(BundledSql.read("queries/07-compare-last-two.sql"));

      assertEquals(List.of("label", "base", "new", "change"), t.columns());
      assertEquals(4, t.rows().size());
      // case=default/bs=32M: 16.625, 16.75, 16.875 s before, two seconds less after.
      assertEquals(List.of("case=default/bs=32M", 61.137, 69.427, "+13.6%"), t.rows().get(0));
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
