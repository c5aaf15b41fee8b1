package io.tunelab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.report.Studies;
import io.tunelab.store.Fixtures;
import io.tunelab.store.ResultTable;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.testing.RepoFiles;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The saved queries on processes, monitor rows and kept output give the right answers on the
 * reader-vs-writer study, followed by an experiment without any of them (as before version 2).
 */
class JobQueryAnswersTest {
  @TempDir static Path dir;
  static Path db;

  @BeforeAll
  static void buildDatabase() {
    db = dir.resolve("study.db");
    try (JdbcResultStore store = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      Studies.readerVsWriter(store);
      Fixtures.readaheadStudy(store);
    }
  }

  private static ResultTable query(String file) throws Exception {
    Path path = RepoFiles.repoRoot().resolve("db/queries").resolve(file);
    return JdbcResultStore.query(db, Files.readString(path));
  }

  private static List<Object> column(ResultTable t, String name) {
    int i = t.columns().indexOf(name);
    return t.rows().stream().map(r -> r.get(i)).toList();
  }

  @Test
  void eachJobsThroughputWithTheClassItReallyHad() throws Exception {
    ResultTable t = query("15-throughput-by-ionice.sql");

    assertEquals(8, t.rows().size(), t.rows().toString());
    assertEquals(
        List.of(
            "best-effort: prio 0",
            "best-effort: prio 7",
            "realtime: prio 0",
            "best-effort: prio 7",
            "best-effort: prio 0",
            "best-effort: prio 7",
            "realtime: prio 0",
            "best-effort: prio 7"),
        column(t, "ionice"));
    assertEquals(List.of(3L), column(t, "trials").stream().distinct().toList());
    // bfq with the reader in rt/0: the reader's 167.6 MiB/s, the writer's two processes 62.8.
    assertEquals(List.of(4L, 4L), column(t, "ordinal").subList(6, 8));
    assertEquals(List.of("reader", "writer"), column(t, "job").subList(6, 8));
    assertEquals(List.of(167.57, 62.8), column(t, "mib_per_s").subList(6, 8));
  }

  @Test
  void theMonitorRowsOfTheLastTrialIntervalByInterval() throws Exception {
    ResultTable t = query("16-monitor-rows-of-a-trial.sql");

    // Trial 12 ran 16.3 s: iostat's 8 rows of 2 s, then vmstat's 16 rows of 1 s.
    assertEquals(8 + 16, t.rows().size());
    assertEquals(List.of("cli1", "iostat", "sdb", 2.0), t.rows().get(0).subList(0, 4));
    assertEquals(List.of("cli1", "vmstat", "", 16.0), t.rows().get(23).subList(0, 4));
    List<Object> wa = column(t, "wa");
    assertEquals(null, wa.get(0), "iostat rows have no wa");
    double sum = 0;
    for (Object v : wa.subList(8, 24)) {
      sum += ((Number) v).doubleValue();
    }
    // The rows average to the trial's mean: 45.2 % in this cell, 1 % more in repetition 3.
    assertEquals(45.2 * 1.01, sum / 16, 0.01);
  }

  @Test
  void theKeptFioJsonIsListedAndItsDataIsGzip() throws Exception {
    ResultTable t = query("17-kept-outputs.sql");

    assertEquals(12, t.rows().size());
    assertEquals(List.of("reader.0"), column(t, "process").stream().distinct().toList());
    assertEquals(List.of("fio-json"), column(t, "kind").stream().distinct().toList());
    long trial = (Long) column(t, "trial_id").get(6);
    ResultTable data =
        JdbcResultStore.query(
            db,
            "SELECT data FROM trial_outputs WHERE trial_id = "
                + trial
                + " AND process = 'reader.0'");
    byte[] gzip = (byte[]) data.rows().get(0).get(0);
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
      String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(json.contains("\"jobname\" : \"reader\""), json);
    }
  }
}
