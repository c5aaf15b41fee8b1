package io.tunelab.store.sqlite;

import static io.tunelab.store.Fixtures.cell;
import static io.tunelab.store.Fixtures.experiment;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.matrix.OnFlag;
import io.tunelab.plan.ExperimentPlan;
import io.tunelab.report.Report;
import io.tunelab.store.Fixtures;
import io.tunelab.store.ReportData;
import io.tunelab.store.TrialCommit;
import io.tunelab.store.TrialFlag;
import io.tunelab.store.TrialRef;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Health flags go with a trial's commit, go when it runs again, and leave the statistics only when
 * the experiment's {@code on_flag} is {@code exclude}; the report says so.
 */
class TrialFlagsStoreTest {
  @TempDir Path dir;

  private static final List<TrialFlag> FLAGS =
      List.of(
          new TrialFlag("cli1", TrialFlag.DMESG, "EXT4-fs warning"),
          new TrialFlag("srv1", TrialFlag.KNOB_DRIFT, "read_ahead_kb applied 256, read 128"));

  /** Three trials of 10, 20 and 30 s; the third flagged. */
  private ReportData run(OnFlag onFlag) {
    ExperimentPlan p = experiment("flags", 3, 0, List.of(cell(1, "bs", "1M")));
    ExperimentPlan plan =
        new ExperimentPlan(
            p.name(),
            p.description(),
            p.matrixYaml(),
            p.matrixPath(),
            p.order(),
            p.seed(),
            p.repeat(),
            p.warmup(),
            p.cells(),
            p.trials(),
            p.workload(),
            p.overrides(),
            p.repeatRule(),
            onFlag);
    try (JdbcResultStore store =
        JdbcResultStore.open(dir.resolve(onFlag.text() + ".db"), Fixtures.CLOCK)) {
      long id = store.createExperiment(plan, Fixtures.TOOL_VERSION);
      store.recordHost(id, "client", "cli1", java.util.Map.of());
      store.recordHost(id, "server", "srv1", java.util.Map.of());
      List<TrialRef> trials = store.unfinishedTrials(id);
      for (int i = 0; i < 3; i++) {
        var result = Fixtures.timed(10 * (i + 1));
        store.commitTrial(
            TrialCommit.of(trials.get(i).trialId(), i == 2 ? result.withFlags(FLAGS) : result));
      }
      return store.report(id);
    }
  }

  private List<List<Object>> rows(OnFlag onFlag, String sql) throws SQLException {
    return Fixtures.rows(dir.resolve(onFlag.text() + ".db"), sql);
  }

  @Test
  void keptFlaggedTrialsCountAndTheReportWarns() throws Exception {
    ReportData data = run(OnFlag.KEEP);

    assertEquals(
        List.of(
            List.of(3L, "cli1", "dmesg", "EXT4-fs warning"),
            List.of(3L, "srv1", "knob_drift", "read_ahead_kb applied 256, read 128")),
        rows(
            OnFlag.KEEP,
            "SELECT t.seq, f.host, f.flag, f.detail FROM trial_flags f JOIN trials t ON t.id = f.trial_id ORDER BY f.host"));
    assertEquals(
        List.of(List.of(3L, 20.0)),
        rows(
            OnFlag.KEEP,
            "SELECT n, mean FROM cell_stats WHERE job = 'all' AND metric = 'seconds'"));
    String text =
        String.join("\n", Report.build(data, Report.Options.CLASSIC).warnings().lines(""));
    assertTrue(
        text.contains(
            "1 trial(s) flagged: dmesg 1 (client), knob_drift 1 (server);"
                + " on_flag keep: they are in the statistics"),
        text);
  }

  @Test
  void excludedFlaggedTrialsLeaveTheStatisticsButStayStored() throws Exception {
    ReportData data = run(OnFlag.EXCLUDE);

    assertEquals(
        List.of(List.of(2L, 15.0)),
        rows(
            OnFlag.EXCLUDE,
            "SELECT n, mean FROM cell_stats WHERE job = 'all' AND metric = 'seconds'"));
    assertEquals(List.of(List.of(2L)), rows(OnFlag.EXCLUDE, "SELECT count(*) FROM trial_flags"));
    ReportData.Trial third = data.cells().get(0).trials().get(2);
    assertTrue(third.excluded());
    assertFalse(third.counted());
    assertEquals(2, data.cells().get(0).values("seconds").length);
    String text =
        String.join("\n", Report.build(data, Report.Options.CLASSIC).warnings().lines(""));
    assertTrue(text.contains("on_flag exclude: they are left out of the statistics"), text);
  }
}
