package io.tunelab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.matrix.RepeatRule;
import io.tunelab.report.Comparison.Options;
import io.tunelab.report.Comparison.Row;
import io.tunelab.stats.Summary;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.ReportData;
import io.tunelab.store.ReportData.Cell;
import io.tunelab.store.ReportData.Stat;
import io.tunelab.store.ReportData.Trial;
import io.tunelab.store.TrialCounts;
import io.tunelab.store.TrialStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which test decides a row: Welch's, paired by round, Mann–Whitney's, two-stage after a pilot. */
class CompareTestsTest {
  private static Cell cell(int ordinal, String sched, double... values) {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("scheduler", sched);
    List<Trial> trials = new ArrayList<>();
    for (int i = 0; i < values.length; i++) {
      trials.add(new Trial(i + 1, false, TrialStatus.OK, null, Map.of("mib_per_s", values[i])));
    }
    return new Cell(
        ordinal,
        "scheduler=" + sched,
        params,
        trials,
        Map.of("mib_per_s", new Stat("MiB/s", Summary.of(values))));
  }

  private static ReportData experiment(String order, RepeatRule rule, List<Cell> cells) {
    return new ReportData(
        1,
        "drifting",
        ExperimentStatus.FINISHED,
        List.of(new ReportData.Host("local", "local", "6.1")),
        new TrialCounts(8, 0, 0, 0, 0),
        "all",
        List.of("all"),
        Map.of("mib_per_s", "MiB/s"),
        List.of("scheduler"),
        cells,
        List.of(),
        Map.of(),
        new ReportData.About(null, null, null, null, "keep", List.of(), order),
        rule == null ? null : new ReportData.Repetitions(rule, "mib_per_s", List.of()));
  }

  // The machine drifts from 100 to 130 over the rounds; the new value is 2 % above the base in
  // every round. Independent samples see the drift as noise; pairs by round see the 2 %.
  private static final double[] BASE = {100, 110, 120, 130};
  private static final double[] NEW = {102, 112.2, 122.4, 132.6};

  @Test
  void rowsOfOneExperimentRunInRoundsArePairedByRound() {
    ReportData data =
        experiment("rounds", null, List.of(cell(1, "none", BASE), cell(2, "bfq", NEW)));
    Comparison c = Comparison.axis(data, "scheduler", "none", "bfq", "mib_per_s", Options.DEFAULT);
    Row r = c.rows().get(0);
    assertTrue(c.paired());
    assertNotNull(r.paired());
    assertEquals(4, r.paired().rounds());
    assertEquals(2.0, r.interval().low(), 1e-9);
    assertEquals(2.0, r.interval().high(), 1e-9);
    assertTrue(r.significant());
    assertTrue(ReportFormat.TEXT.render(c).contains("paired t-test of the rounds' log ratios"));
  }

  @Test
  void withoutRoundsTheSameValuesAreIndependentSamples() {
    ReportData data =
        experiment("shuffle", null, List.of(cell(1, "none", BASE), cell(2, "bfq", NEW)));
    Comparison c = Comparison.axis(data, "scheduler", "none", "bfq", "mib_per_s", Options.DEFAULT);
    Row r = c.rows().get(0);
    assertFalse(c.paired());
    assertNull(r.paired());
    assertFalse(r.significant());
    assertTrue(r.interval().low() < 0 && r.interval().high() > 0, r.interval().toString());
  }

  @Test
  void mannWhitneyRanksTheValuesAndTheLegendSaysSo() {
    ReportData data =
        experiment(
            "sequential",
            null,
            List.of(cell(1, "none", 100, 101, 99, 100.5), cell(2, "bfq", 103, 104, 150, 103.5)));
    Options o = new Options(0.05, 2, 0.95, Comparison.Test.MANN_WHITNEY);
    Comparison c = Comparison.axis(data, "scheduler", "none", "bfq", "mib_per_s", o);
    Row r = c.rows().get(0);
    assertEquals(0.02857142857142857, r.p(), 1e-12);
    assertTrue(r.significant());
    Comparison welch =
        Comparison.axis(data, "scheduler", "none", "bfq", "mib_per_s", Options.DEFAULT);
    assertFalse(welch.rows().get(0).significant(), "the outlier hides it from Welch's test");
    assertTrue(
        ReportFormat.TEXT.render(c).contains("* = Mann-Whitney U test p < 0.05 with n >= 3"));
  }

  @Test
  void anAdaptiveExperimentTestsEachCellOnItsTwoStageVariance() {
    // The pilots (first 3) are noisy, the rest tight: the test keeps the pilots' spread and their
    // two degrees of freedom, where the plain test would trust the tight values after them.
    double[] base = {100, 104, 96, 100, 100, 100, 100};
    double[] next = {103, 107, 99, 103, 103, 103, 103};
    RepeatRule rule = new RepeatRule(3, 12, 0.02, null);
    ReportData adaptive =
        experiment("sequential", rule, List.of(cell(1, "none", base), cell(2, "bfq", next)));
    ReportData fixed =
        experiment("sequential", null, List.of(cell(1, "none", base), cell(2, "bfq", next)));
    Row two =
        Comparison.axis(adaptive, "scheduler", "none", "bfq", "mib_per_s", Options.DEFAULT)
            .rows()
            .get(0);
    Row plain =
        Comparison.axis(fixed, "scheduler", "none", "bfq", "mib_per_s", Options.DEFAULT)
            .rows()
            .get(0);
    assertEquals(2, two.baseEstimate().df());
    assertEquals(16.0 / 7, two.baseEstimate().variance(), 1e-9);
    assertTrue(two.p() > plain.p(), two.p() + " vs " + plain.p());
    assertTrue(
        ReportFormat.TEXT
            .render(
                Comparison.axis(adaptive, "scheduler", "none", "bfq", "mib_per_s", Options.DEFAULT))
            .contains("adaptive repetitions (base): each cell's variance is the larger"));
  }
}
