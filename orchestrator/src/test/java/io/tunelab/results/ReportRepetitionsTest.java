package io.tunelab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tunelab.matrix.OnFlag;
import io.tunelab.matrix.RepeatRule;
import io.tunelab.plan.Cell;
import io.tunelab.plan.ExperimentPlan;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.Fixtures;
import io.tunelab.store.TrialCommit;
import io.tunelab.store.TrialRef;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.testing.Cli;
import io.tunelab.testing.GoldenFiles;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report of an experiment run under {@code repeat: {min: 3, max: 12, target: 2%}}: the rule, n
 * per cell, and the cell that reached max short of the target, above the table; and what a shared
 * report says of its host and workload.
 */
class ReportRepetitionsTest {
  @TempDir static Path dir;
  static String db;

  @BeforeAll
  static void buildDatabase() throws Exception {
    db = dir.resolve("adaptive.db").toString();
    List<Cell> cells =
        List.of(
            Fixtures.cell(1, "bs", "64M"),
            Fixtures.cell(2, "bs", "32M"),
            Fixtures.cell(3, "bs", "16M"));
    ExperimentPlan fixed = Fixtures.experiment("adaptive", 12, 0, cells);
    ExperimentPlan plan =
        new ExperimentPlan(
            fixed.name(),
            fixed.description(),
            "name: adaptive\nworkload: {dd: {input: /dev/sdb, output: /dev/null, bs: 64M,"
                + " count: 16, flags: [iflag=direct]}}\n",
            fixed.matrixPath(),
            fixed.order(),
            fixed.seed(),
            12,
            0,
            cells,
            fixed.trials(),
            null,
            Map.of(),
            new RepeatRule(3, 12, 0.02, null),
            OnFlag.KEEP);
    try (JdbcResultStore store = JdbcResultStore.open(Path.of(db), Fixtures.CLOCK)) {
      long id = store.createExperiment(plan, Fixtures.TOOL_VERSION);
      store.recordHost(
          id,
          "client",
          "cli1",
          Map.of(
              "kernel_release", "6.1.0-18-amd64",
              "cpus", "4",
              "mem_kb", "16337700",
              "cpu_model", "Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz",
              "cpufreq_governor", "performance"));
      store.setExperimentStatus(id, ExperimentStatus.RUNNING);
      // Cell 1 is quiet (its pilot asks for 3), cell 2's pilot asks for 5, cell 3 swings between 16
      // s
      // and 20 s.
      double[][] seconds = {
        {16.0, 16.1, 16.0},
        {16.0, 16.3, 16.2, 16.4, 16.3},
        {16, 20, 16, 20, 16, 20, 16, 20, 16, 20, 16, 20}
      };
      Set<Long> done = new TreeSet<>();
      for (TrialRef t : store.unfinishedTrials(id)) {
        if (done.contains(t.cellId())) {
          continue;
        }
        double[] mine = seconds[t.cellOrdinal() - 1];
        store.startTrial(t.trialId());
        store.commitTrial(
            TrialCommit.of(t.trialId(), Fixtures.dd(mine[t.rep() - 1], Fixtures.GIB, 64)));
        if (t.rep() == mine.length && mine.length < 12) {
          store.skipPendingTrials(t.cellId(), "not needed: the cell met its target");
          done.add(t.cellId());
        }
      }
      store.setExperimentStatus(id, ExperimentStatus.FINISHED);
    }
  }

  @Test
  void theReportGivesTheRuleNPerCellAndTheCellShortOfItsTarget() {
    Cli.Result r = Cli.tunelab("report", "--db", db);
    assertEquals(0, r.code(), r.all());
    GoldenFiles.assertMatches("report/adaptive-repeat.txt", r.out());
  }
}
