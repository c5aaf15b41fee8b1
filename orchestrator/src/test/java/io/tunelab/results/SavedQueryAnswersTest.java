package io.tunelab.results;

import static io.tunelab.store.Fixtures.MIB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.plan.Cell;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.Fixtures;
import io.tunelab.store.ResultTable;
import io.tunelab.store.TrialCommit;
import io.tunelab.store.TrialRef;
import io.tunelab.store.TrialResult;
import io.tunelab.store.TrialStatus;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.store.sqlite.SqliteQueryRunner;
import io.tunelab.workload.Sample;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The saved queries of db/queries give the right answers, not just some rows: a loop-disk
 * read-ahead study (read_ahead_kb 128/512/2048 x bs 64M/1M, two concurrent dd readers) run on two
 * kernels, where 2048 wins at 64M, 512 at 1M, one cell is noisy, 2048/64M regresses on the new
 * kernel, and the second reader always gets a third less than the first.
 */
class SavedQueryAnswersTest {
  private static final String READ_AHEAD = "local.block.${dev}.read_ahead_kb";

  @TempDir static Path dir;
  static Path db;

  /** Ten seconds per call: every timestamp the store writes is another ten seconds later. */
  static final class TickingClock extends Clock {
    private Instant now = Instant.parse("2024-05-01T20:00:00Z");

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public synchronized Instant instant() {
      now = now.plusSeconds(10);
      return now;
    }
  }

  @BeforeAll
  static void runTheStudyTwice() {
    db = dir.resolve("study.db");
    try (JdbcResultStore store = JdbcResultStore.open(db, new TickingClock())) {
      run(store, false);
      run(store, true);
    }
  }

  private static void run(JdbcResultStore store, boolean regressed) {
    List<Cell> cells = new ArrayList<>();
    int ordinal = 1;
    for (String ra : List.of("128", "512", "2048")) {
      for (String bs : List.of("64M", "1M")) {
        cells.add(Fixtures.cell(ordinal++, READ_AHEAD, ra, "bs", bs));
      }
    }
    long id =
        store.createExperiment(
            Fixtures.experiment("loop-readahead", 3, 0, cells), Fixtures.TOOL_VERSION);
    store.setExperimentStatus(id, ExperimentStatus.RUNNING);
    // Seconds to read 256 MiB, by cell: 2048 is fastest at 64M, 512 at 1M.
    double[] seconds = {1.0, 1.2, 0.8, 0.9, 0.5, 1.1};
    for (TrialRef t : store.unfinishedTrials(id)) {
      int c = t.cellOrdinal() - 1;
      double s = seconds[c] * (1 + 0.002 * t.rep());
      if (c == 1) {
        s *= new double[] {0, 1.0, 1.3, 0.8}[t.rep()]; // 128/1M: noisy
      }
      if (regressed && c == 4) {
        s *= 1.1; // 2048/64M: 9.1 % less throughput on the new kernel
      }
      store.startTrial(t.trialId());
      store.commitTrial(TrialCommit.of(t.trialId(), twoReaders(s)));
    }
    store.setExperimentStatus(id, ExperimentStatus.FINISHED);
  }

  /**
   * Two dd readers of 128 MiB each finishing together; the second gets a third less. As a run
   * stores them: each process ({@code dd.0}, {@code dd.1}), the job's total ({@code dd}) and the
   * trial's ({@code all}).
   */
  private static TrialResult twoReaders(double seconds) {
    List<Sample> samples = new ArrayList<>();
    double total = 256 * MIB;
    double[] share = {0.6, 0.4};
    for (int j = 0; j < 2; j++) {
      samples.add(new Sample("dd." + j, "seconds", seconds, "s"));
      samples.add(new Sample("dd." + j, "mib_per_s", total * share[j] / seconds / MIB, "MiB/s"));
    }
    for (String job : List.of("dd", "all")) {
      samples.add(new Sample(job, "seconds", seconds, "s"));
      samples.add(new Sample(job, "mib_per_s", total / seconds / MIB, "MiB/s"));
    }
    return new TrialResult(TrialStatus.OK, null, seconds, samples, List.of());
  }

  private static ResultTable query(String file) throws IOException {
    String root = System.getenv("TUNELAB_ROOT");
    Path path = Path.of(root == null ? ".." : root, "db", "queries", file);
    // The first experiment ran on the old kernel, the second on the new one.
    return SqliteQueryRunner.query(
        db, Files.readString(path), Map.of("experiment", "2", "base", "1", "new", "2"));
  }

  private static List<Object> column(ResultTable t, String name) {
    int i = t.columns().indexOf(name);
    return t.rows().stream().map(r -> r.get(i)).toList();
  }

  @Test
  void theBestReadAheadPerBlockSize() throws Exception {
    // The latest experiment: the new kernel.
    ResultTable t = query("09-best-per-block-size.sql");

    assertEquals(List.of("64M", "1M"), column(t, "bs"));
    assertEquals(
        List.of("read_ahead_kb=2048/bs=64M", "read_ahead_kb=512/bs=1M"), column(t, "best"));
    // On the new kernel 2048 lost 9 % at 64M, still 45 % ahead of 512 (0.55 s against 0.8 s).
    assertEquals("+45.5%", column(t, "lead").get(0));
  }

  @Test
  void theNoisiestCellComesFirst() throws Exception {
    ResultTable t = query("10-noisiest-cells.sql");

    assertEquals("read_ahead_kb=128/bs=1M", column(t, "label").get(0));
    assertTrue(((Number) column(t, "cv_pct").get(0)).doubleValue() > 15, t.rows().toString());
    assertTrue(((Number) column(t, "cv_pct").get(1)).doubleValue() < 1, t.rows().toString());
  }

  @Test
  void theRegressionComesFirstWithItsTStatistic() throws Exception {
    ResultTable t = query("11-regressions-first.sql");

    assertEquals(6, t.rows().size());
    assertEquals("read_ahead_kb=2048/bs=64M", column(t, "label").get(0));
    assertEquals("-9.1%", column(t, "change").get(0));
    assertTrue(((Number) column(t, "t").get(0)).doubleValue() < -20, t.rows().toString());
    assertEquals("+0.0%", column(t, "change").get(1));
    assertEquals("3/3", column(t, "n").get(0));
  }

  @Test
  void blockSizeMattersMoreThanReadAhead() throws Exception {
    ResultTable t = query("12-which-axis-matters.sql");

    assertEquals(List.of(READ_AHEAD, READ_AHEAD, READ_AHEAD, "bs", "bs"), column(t, "axis"));
    assertEquals(List.of("2048", "512", "128", "64M", "1M"), column(t, "value"));
    assertEquals("+0.0%", column(t, "vs_best").get(0));
    assertEquals("+0.0%", column(t, "vs_best").get(3));
    assertTrue(((String) column(t, "vs_best").get(4)).startsWith("-"), t.rows().toString());
  }

  @Test
  void theSecondReaderGetsTwoThirdsOfTheFirst() throws Exception {
    ResultTable t = query("13-concurrent-fairness.sql");

    assertEquals(18, t.rows().size());
    assertEquals(List.of(2L), column(t, "processes").stream().distinct().toList());
    assertEquals(List.of(1.5), column(t, "ratio").stream().distinct().toList());
  }

  @Test
  void theOverheadIsTheWallTimeOutsideTheWorkloads() throws Exception {
    ResultTable t = query("14-where-the-time-went.sql");

    assertEquals(2, t.rows().size());
    for (List<Object> row : t.rows()) {
      double wall = ((Number) row.get(3)).doubleValue();
      double workload = ((Number) row.get(4)).doubleValue();
      double perTrial = ((Number) row.get(5)).doubleValue();
      assertEquals(18L, row.get(2));
      // Every trial starts and finishes 10 s apart on the ticking clock: 35 steps of 10 s.
      assertEquals(350.0, wall);
      assertEquals((wall - workload) / 18, perTrial, 0.01);
    }
  }
}
