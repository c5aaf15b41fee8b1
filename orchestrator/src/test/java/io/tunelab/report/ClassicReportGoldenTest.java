package io.tunelab.report;

import static io.tunelab.store.Fixtures.cell;
import static io.tunelab.store.Fixtures.dd;
import static io.tunelab.store.Fixtures.experiment;
import static io.tunelab.store.Fixtures.timed;

import io.tunelab.plan.Cell;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.Fixtures;
import io.tunelab.store.ResultReader;
import io.tunelab.store.TrialCommit;
import io.tunelab.store.TrialRef;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.testing.GoldenFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The classic report of databases built through the store API, compared with golden files. */
class ClassicReportGoldenTest {
  private static final String SCHEDULER = "server.block.${dev}.scheduler";
  private static final String READ_AHEAD = "disk.block.${dev}.read_ahead_kb";

  @TempDir Path dir;

  private String report(long id, ResultReader store) {
    return ClassicReport.render(store.report(id));
  }

  @Test
  void casesWithSlashesEqualsAndColonsInterruptedWithAFailure() throws Exception {
    Path db = dir.resolve("t.db");
    long id;
    try (JdbcResultStore store = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      id = Studies.iscsi(store);
    }
    try (ResultReader store = JdbcResultStore.openReadOnly(db)) {
      GoldenFiles.assertMatches("report/iscsi-readahead.txt", report(id, store));
    }
  }

  @Test
  void withoutACaseAxisBlocksAreEveryAxisButTheLast() throws Exception {
    Path db = dir.resolve("t.db");
    long id;
    try (JdbcResultStore store = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      List<Cell> cells = new ArrayList<>();
      int ordinal = 1;
      for (String scheduler : List.of("none", "mq-deadline")) {
        for (String ra : List.of("default", "2048")) {
          for (String bs : List.of("64M", "1M")) {
            cells.add(cell(ordinal++, SCHEDULER, scheduler, READ_AHEAD, ra, "bs", bs));
          }
        }
      }
      id = store.createExperiment(experiment("loop-readahead", 2, 0, cells), Fixtures.TOOL_VERSION);
      store.recordHost(id, "disk", "local", Map.of("kernel_release", "6.1.0"));
      for (TrialRef t : store.unfinishedTrials(id)) {
        double bsMiB = cells.get(t.cellOrdinal() - 1).params().get("bs").equals("1M") ? 1 : 64;
        store.commitTrial(
            TrialCommit.of(
                t.trialId(),
                dd(0.5 + t.cellOrdinal() * 0.03 + t.rep() * 0.01, 256 * Fixtures.MIB, bsMiB)));
      }
      store.setExperimentStatus(id, ExperimentStatus.FINISHED);
    }
    try (ResultReader store = JdbcResultStore.openReadOnly(db)) {
      GoldenFiles.assertMatches("report/loop-readahead.txt", report(id, store));
    }
  }

  @Test
  void aCommandWithoutParserReportsSecondsOnly() throws Exception {
    Path db = dir.resolve("t.db");
    long id;
    try (JdbcResultStore store = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      List<Cell> cells =
          List.of(cell(1, "threads", "1"), cell(2, "threads", "2"), cell(3, "threads", "16"));
      id = store.createExperiment(experiment("my-reader", 2, 0, cells), Fixtures.TOOL_VERSION);
      for (TrialRef t : store.unfinishedTrials(id)) {
        store.commitTrial(
            TrialCommit.of(t.trialId(), timed(12.0 / t.cellOrdinal() + t.rep() * 0.1)));
      }
      store.setExperimentStatus(id, ExperimentStatus.FINISHED);
    }
    try (ResultReader store = JdbcResultStore.openReadOnly(db)) {
      GoldenFiles.assertMatches("report/my-reader.txt", report(id, store));
    }
  }

  @Test
  void aPlannedExperimentShowsItsShape() throws Exception {
    Path db = dir.resolve("t.db");
    long id;
    try (JdbcResultStore store = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      id =
          store.createExperiment(
              experiment("planned", 3, 0, List.of(cell(1, "bs", "64M"), cell(2, "bs", "1M"))),
              Fixtures.TOOL_VERSION);
    }
    try (ResultReader store = JdbcResultStore.openReadOnly(db)) {
      GoldenFiles.assertMatches("report/planned.txt", report(id, store));
    }
  }
}
