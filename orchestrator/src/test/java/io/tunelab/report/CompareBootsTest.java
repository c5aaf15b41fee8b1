package io.tunelab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.report.Comparison.Options;
import io.tunelab.report.Comparison.Row;
import io.tunelab.stats.ChangeInterval;
import io.tunelab.stats.Interval;
import io.tunelab.stats.MeanEstimate;
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

/** A kernel compared with another when each ran on several boots: boots are the unit. */
class CompareBootsTest {
  private static final String KERNEL = "client.kernel";
  private static final String A = "6.1.0-47-amd64";
  private static final String B = "6.1.0-50-amd64";
  private static final String SPEC = "client.kernel=" + A + "," + B;

  /** A cell whose trials ran on boots {@code bootIds[i]} with the values {@code values[i]}. */
  private static Cell cell(int ordinal, String kernel, String bs, String[] bootIds, double[][] v) {
    Map<String, String> params = new LinkedHashMap<>();
    params.put(KERNEL, kernel);
    params.put("bs", bs);
    List<Trial> trials = new ArrayList<>();
    List<Double> all = new ArrayList<>();
    int rep = 1;
    for (int b = 0; b < v.length; b++) {
      for (double value : v[b]) {
        List<ReportData.Boot> boots =
            bootIds == null
                ? List.of()
                : List.of(
                    new ReportData.Boot("cli1", kernel, bootIds[b], "root=/dev/vda1 ro quiet"));
        trials.add(
            new Trial(rep++, false, TrialStatus.OK, null, Map.of("mib_per_s", value), boots));
        all.add(value);
      }
    }
    double[] values = all.stream().mapToDouble(Double::doubleValue).toArray();
    return new Cell(
        ordinal,
        "kernel=" + kernel + "/bs=" + bs,
        params,
        trials,
        Map.of("mib_per_s", new Stat("MiB/s", Summary.of(values))));
  }

  private static ReportData data(boolean withBoots, boolean oneBoot) {
    String[] a =
        withBoots ? (oneBoot ? new String[] {"a1", "a1"} : new String[] {"a1", "a2"}) : null;
    String[] b =
        withBoots ? (oneBoot ? new String[] {"b1", "b1"} : new String[] {"b1", "b2"}) : null;
    // bs=64M: the boots' means differ far more than their trials; bs=4M: the trials are noisy.
    List<Cell> cells =
        List.of(
            cell(1, A, "64M", a, new double[][] {{100, 101, 100}, {108, 109, 108}}),
            cell(2, A, "4M", a, new double[][] {{50, 55, 45}, {51, 46, 54}}),
            cell(3, B, "64M", b, new double[][] {{115, 116, 115}, {107, 108, 107}}),
            cell(4, B, "4M", b, new double[][] {{56, 61, 51}, {57, 52, 60}}));
    return ReportData.builder(7, "kernel-boots")
        .status(ExperimentStatus.FINISHED)
        .hosts(List.of(new ReportData.Host("client", "cli1", A)))
        .counts(new TrialCounts(24, 0, 0, 0, 0))
        .job("all", List.of("all"))
        .units(Map.of("mib_per_s", "MiB/s"))
        .paramNames(List.of(KERNEL, "bs"))
        .cells(cells)
        .build();
  }

  private static Comparison compare(ReportData d) {
    return Comparison.axis(d, SPEC, "mib_per_s", Options.DEFAULT);
  }

  @Test
  void everyFormatCarriesTheRatiosFromBootsAndBothSpreads() {
    Comparison c = compare(data(true, false));
    GoldenFiles.assertMatches("compare/kernel-boots.txt", ReportFormat.TEXT.render(c));
    GoldenFiles.assertMatches("compare/kernel-boots.md", ReportFormat.MD.render(c));
    GoldenFiles.assertMatches("compare/kernel-boots.csv", ReportFormat.CSV.render(c));
    GoldenFiles.assertMatches("compare/kernel-boots.json", ReportFormat.JSON.render(c));
    String html = HtmlComparison.render(c);
    GoldenFiles.assertMatches("compare/kernel-boots.html", html.substring(html.indexOf("<body>")));
  }

  @Test
  void theIntervalIsThatOfThePerBootMeans() {
    Row r = compare(data(true, false)).rows().get(0);
    assertNotNull(r.boots());
    assertEquals(List.of(100 + 1 / 3.0, 108 + 1 / 3.0), r.boots().base().means());
    Interval expected =
        ChangeInterval.of(
            MeanEstimate.of(Summary.of(new double[] {100 + 1 / 3.0, 108 + 1 / 3.0})),
            MeanEstimate.of(Summary.of(new double[] {115 + 1 / 3.0, 107 + 1 / 3.0})),
            0.95);
    assertEquals(expected.low(), r.interval().low(), 1e-9);
    assertEquals(expected.high(), r.interval().high(), 1e-9);
    // Counting the trials as independent would call the boots' scatter precise.
    Row asTrials = compare(data(false, false)).rows().get(0);
    assertNull(asTrials.boots());
    assertTrue(
        r.interval().high() - r.interval().low()
            > 2 * (asTrials.interval().high() - asTrials.interval().low()),
        r.interval() + " vs " + asTrials.interval());
    assertTrue(asTrials.significant());
    assertFalse(r.significant());
  }

  @Test
  void bootsWhoseMeansAgreeByChanceAreNoNarrowerThanTheirTrials() {
    Row r = compare(data(true, false)).rows().get(1);
    Row asTrials = compare(data(false, false)).rows().get(1);
    assertTrue(
        r.interval().high() - r.interval().low()
            >= asTrials.interval().high() - asTrials.interval().low(),
        r.interval() + " vs " + asTrials.interval());
  }

  @Test
  void theAdviceFollowsTheLargerLevel() {
    Comparison c = compare(data(true, false));
    assertEquals(BootLevels.Advice.BOOTS, c.rows().get(0).boots().advice());
    assertEquals(BootLevels.Advice.REPETITIONS, c.rows().get(1).boots().advice());
  }

  @Test
  void oneBootPerSideKeepsTrialsAsTheUnit() {
    Comparison oneBoot = compare(data(true, true));
    Comparison none = compare(data(false, false));
    assertFalse(oneBoot.bootsAsUnit());
    for (int i = 0; i < none.rows().size(); i++) {
      assertNull(oneBoot.rows().get(i).boots());
      assertEquals(none.rows().get(i).interval(), oneBoot.rows().get(i).interval());
      assertEquals(none.rows().get(i).p(), oneBoot.rows().get(i).p());
    }
    String text = ReportFormat.TEXT.render(oneBoot);
    assertFalse(text.contains("boots as the unit"), text);
  }
}
