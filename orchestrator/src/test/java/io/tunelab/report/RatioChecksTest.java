package io.tunelab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.matrix.RepeatRule;
import io.tunelab.stats.Summary;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.ReportData;
import io.tunelab.store.ReportData.Cell;
import io.tunelab.store.ReportData.Stat;
import io.tunelab.store.ReportData.Trial;
import io.tunelab.store.TrialCounts;
import io.tunelab.store.TrialStatus;
import io.tunelab.testing.GoldenFiles;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The report of a run with {@code repeat: {…, compare: AXIS}}: each ratio and its target. */
class RatioChecksTest {
  private static final String SCHED = "local.block.${dev}.scheduler";
  private static final RepeatRule RULE = new RepeatRule(2, 6, 0.05, "mib_per_s", SCHED);

  private static Cell cell(int ordinal, String sched, String bs, double... values) {
    Map<String, String> params = new LinkedHashMap<>();
    params.put(SCHED, sched);
    params.put("bs", bs);
    List<Trial> trials = new ArrayList<>();
    for (int i = 0; i < values.length; i++) {
      trials.add(new Trial(i + 1, false, TrialStatus.OK, null, Map.of("mib_per_s", values[i])));
    }
    return new Cell(
        ordinal,
        "scheduler=" + sched + "/bs=" + bs,
        params,
        trials,
        Map.of("mib_per_s", new Stat("MiB/s", Summary.of(values))));
  }

  private static ReportData data() {
    List<Cell> cells =
        List.of(
            cell(1, "none", "64k", 100, 100.4),
            cell(2, "none", "1M", 200, 230, 190, 210, 180, 220),
            cell(3, "mq-deadline", "64k", 101, 101.3),
            cell(4, "mq-deadline", "1M", 205, 180, 235, 200, 215, 190));
    List<ReportData.CellRepetitions> n = new ArrayList<>();
    for (Cell c : cells) {
      Summary s = c.stats().get("mib_per_s").summary();
      n.add(
          new ReportData.CellRepetitions(
              c.ordinal(), c.label(), s.n(), RepeatRule.relativeHalfWidth(s)));
    }
    return ReportData.builder(5, "compare-repeat")
        .status(ExperimentStatus.FINISHED)
        .counts(new TrialCounts(16, 0, 8, 0, 0))
        .job("all", List.of("all"))
        .units(Map.of("mib_per_s", "MiB/s"))
        .paramNames(List.of(SCHED, "bs"))
        .cells(cells)
        .repetitions(new ReportData.Repetitions(RULE, "mib_per_s", n))
        .build();
  }

  @Test
  void eachGroupsRatioHasTheIntervalCompareGivesAndSaysWhetherTheTargetHeld() {
    List<RatioChecks> checks = RatioChecks.of(data());
    assertEquals(2, checks.size());
    assertEquals("bs=64k", checks.get(0).group());
    assertTrue(checks.get(0).held(), checks.get(0).text());
    assertFalse(checks.get(1).held(), checks.get(1).text());
    assertTrue(checks.get(1).atMax());
    Comparison c =
        Comparison.axis(
            data(), SCHED, "none", "mq-deadline", "mib_per_s", Comparison.Options.DEFAULT);
    assertEquals(c.rows().get(1).interval(), checks.get(1).interval());
  }

  @Test
  void theReportNamesEveryRatioItsIntervalAndTheTarget() {
    Report r = Report.build(data(), Report.Options.CLASSIC);
    GoldenFiles.assertMatches("report/compare-repeat.txt", ReportFormat.TEXT.render(r));
    GoldenFiles.assertMatches("report/compare-repeat.json", ReportFormat.JSON.render(r));
  }

  @Test
  void withTwoBootsASideTheRatioIsJudgedOnTheBootsMeans() {
    List<Cell> cells = new ArrayList<>();
    for (Cell c : data().cells()) {
      List<Trial> trials = new ArrayList<>();
      for (Trial t : c.trials()) {
        String boot = c.ordinal() + (t.rep() <= c.trials().size() / 2 ? "a" : "b");
        trials.add(
            new Trial(
                t.rep(),
                false,
                TrialStatus.OK,
                null,
                t.values(),
                List.of(new ReportData.Boot("cli1", "6.1", boot, "ro"))));
      }
      cells.add(new Cell(c.ordinal(), c.label(), c.params(), trials, c.stats()));
    }
    ReportData d = data();
    ReportData booted =
        ReportData.builder(5, "compare-repeat")
            .status(ExperimentStatus.FINISHED)
            .counts(d.counts())
            .job("all", List.of("all"))
            .units(Map.of("mib_per_s", "MiB/s"))
            .paramNames(d.paramNames())
            .cells(cells)
            .repetitions(d.repetitions())
            .build();
    List<RatioChecks> checks = RatioChecks.of(booted);
    assertTrue(checks.get(1).boots(), checks.get(1).text());
    assertTrue(checks.get(1).text().endsWith(", boots as the unit)"), checks.get(1).text());
    Comparison c =
        Comparison.axis(
            booted, SCHED, "none", "mq-deadline", "mib_per_s", Comparison.Options.DEFAULT);
    assertEquals(c.rows().get(1).interval(), checks.get(1).interval());
  }
}
