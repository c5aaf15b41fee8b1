package io.tunelab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.TunelabException;
import io.tunelab.report.Comparison.Options;
import io.tunelab.report.Comparison.Row;
import io.tunelab.stats.Summary;
import io.tunelab.stats.Verdict;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.ReportData;
import io.tunelab.store.ReportData.Cell;
import io.tunelab.store.ReportData.Stat;
import io.tunelab.store.ReportData.Trial;
import io.tunelab.store.RunConditions;
import io.tunelab.store.TrialCounts;
import io.tunelab.store.TrialStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The decisions of a comparison, on hand-made data. */
class ComparisonTest {
  private static final String RA = "local.block.${dev}.read_ahead_kb";

  /** A cell of read_ahead_kb=ra/bs=bs whose MiB/s were {@code values}. */
  private static Cell cell(int ordinal, String ra, String bs, double... values) {
    Map<String, String> params = new LinkedHashMap<>();
    params.put(RA, ra);
    params.put("bs", bs);
    List<Trial> trials = new ArrayList<>();
    for (int i = 0; i < values.length; i++) {
      trials.add(new Trial(i + 1, false, TrialStatus.OK, null, Map.of("mib_per_s", values[i])));
    }
    Map<String, Stat> stats =
        values.length == 0 ? Map.of() : Map.of("mib_per_s", new Stat("MiB/s", Summary.of(values)));
    return new Cell(ordinal, "read_ahead_kb=" + ra + "/bs=" + bs, params, trials, stats);
  }

  private static ReportData experiment(long id, String kernel, List<Cell> cells) {
    return ReportData.builder(id, "loop-readahead")
        .status(ExperimentStatus.FINISHED)
        .hosts(List.of(new ReportData.Host("disk", "local", kernel)))
        .counts(new TrialCounts(cells.size() * 3, 0, 0, 0, 0))
        .job("all", List.of("all"))
        .units(Map.of("mib_per_s", "MiB/s"))
        .paramNames(List.of(RA, "bs"))
        .cells(cells)
        .build();
  }

  @Test
  void aSignificantChangeBelowTheMinimumIsTheSame() {
    // +0.5 %, with so little spread that the t-test is sure: still below the 2 % minimum.
    ReportData base = experiment(1, "6.1", List.of(cell(1, "128", "64M", 100.0, 100.01, 99.99)));
    ReportData next = experiment(2, "6.6", List.of(cell(1, "128", "64M", 100.5, 100.51, 100.49)));

    Row strict = Comparison.experiments(base, next, "mib_per_s", Options.DEFAULT).rows().get(0);
    Row lax =
        Comparison.experiments(base, next, "mib_per_s", new Options(0.05, 0.1, 0.95)).rows().get(0);

    assertTrue(strict.p() < 1e-6, "p " + strict.p());
    assertEquals("*", strict.marker());
    assertEquals(Verdict.SAME, strict.verdict());
    assertEquals("*", lax.marker());
    assertEquals(Verdict.BETTER, lax.verdict());
  }

  @Test
  void theMinimumChangeCountsInclusively() {
    ReportData base = experiment(1, "6.1", List.of(cell(1, "128", "64M", 100, 100.1, 99.9)));
    ReportData next = experiment(2, "6.6", List.of(cell(1, "128", "64M", 98, 98.1, 97.9)));

    Row row = Comparison.experiments(base, next, "mib_per_s", Options.DEFAULT).rows().get(0);

    assertEquals(-2.0, row.change(), 1e-9);
    assertEquals(Verdict.WORSE, row.verdict());
  }

  @Test
  void twoRepetitionsAreNeverMarkedButStillTested() {
    ReportData base = experiment(1, "6.1", List.of(cell(1, "128", "64M", 100, 101)));
    ReportData next = experiment(2, "6.6", List.of(cell(1, "128", "64M", 150, 151)));

    Row row = Comparison.experiments(base, next, "mib_per_s", Options.DEFAULT).rows().get(0);

    assertTrue(row.p() < 0.01, "p " + row.p());
    assertFalse(row.significant());
    assertEquals("~", row.marker());
    assertEquals(Verdict.UNTESTED, row.verdict());
  }

  @Test
  void oneRepetitionHasNoTest() {
    ReportData base = experiment(1, "6.1", List.of(cell(1, "128", "64M", 100)));
    ReportData next = experiment(2, "6.6", List.of(cell(1, "128", "64M", 150, 151, 152)));

    Row row = Comparison.experiments(base, next, "mib_per_s", Options.DEFAULT).rows().get(0);

    assertNull(row.welch());
    assertTrue(Double.isNaN(row.p()));
    assertEquals("-", Numbers.p(row.p()));
  }

  @Test
  void aDropInThroughputIsARegressionTotalsAndGeomeanSumUp() {
    ReportData base =
        experiment(
            1,
            "6.1",
            List.of(cell(1, "128", "64M", 100, 101, 99), cell(2, "128", "1M", 50, 50.5, 49.5)));
    ReportData next =
        experiment(
            2,
            "6.6",
            List.of(cell(1, "128", "64M", 80, 81, 79), cell(2, "128", "1M", 100, 101, 99)));

    Comparison c = Comparison.experiments(base, next, "mib_per_s", Options.DEFAULT);

    assertEquals(
        List.of(Verdict.WORSE, Verdict.BETTER), c.rows().stream().map(Row::verdict).toList());
    assertEquals(-20.0, c.rows().get(0).change(), 1e-9);
    assertEquals(150.0, c.total().base(), 1e-9);
    assertEquals(180.0, c.total().next(), 1e-9);
    assertEquals(20.0, c.total().change(), 1e-9);
    // Ratios 0.8 and 2.0: geometric mean sqrt(1.6) = 1.2649.
    assertEquals(26.49, c.geomean().change(), 0.01);
    assertEquals(Math.sqrt(100 * 50), c.geomean().base(), 1e-9);
  }

  @Test
  void timeGoingUpIsARegression() {
    Map<String, String> params = Map.of("bs", "64M");
    Cell slow =
        new Cell(
            1,
            "bs=64M",
            params,
            List.of(),
            Map.of("seconds", new Stat("s", Summary.of(new double[] {10, 10.1, 9.9}))));
    Cell slower =
        new Cell(
            1,
            "bs=64M",
            params,
            List.of(),
            Map.of("seconds", new Stat("s", Summary.of(new double[] {12, 12.1, 11.9}))));
    ReportData base =
        ReportData.builder(1, "t")
            .status(ExperimentStatus.FINISHED)
            .counts(new TrialCounts(3, 0, 0, 0, 0))
            .job("all", List.of("all"))
            .units(Map.of("seconds", "s"))
            .paramNames(List.of("bs"))
            .cells(List.of(slow))
            .build();
    ReportData next =
        ReportData.builder(2, "t")
            .status(ExperimentStatus.FINISHED)
            .counts(new TrialCounts(3, 0, 0, 0, 0))
            .job("all", List.of("all"))
            .units(Map.of("seconds", "s"))
            .paramNames(List.of("bs"))
            .cells(List.of(slower))
            .build();

    Row row = Comparison.experiments(base, next, "seconds", Options.DEFAULT).rows().get(0);

    assertEquals("+20.0%", Numbers.percent(row.change()));
    assertEquals(Verdict.WORSE, row.verdict());
  }

  @Test
  void cellsMatchByParametersWhateverTheirOrderAndLabels() {
    Cell a = cell(1, "128", "64M", 100, 101, 99);
    Map<String, String> reordered = new LinkedHashMap<>();
    reordered.put("bs", "64M");
    reordered.put(RA, "128");
    Cell b = new Cell(7, "another label", reordered, a.trials(), a.stats());
    ReportData base = experiment(1, "6.1", List.of(a, cell(2, "512", "64M", 1, 1, 1)));
    ReportData next = experiment(2, "6.6", List.of(b, cell(3, "2048", "64M", 1, 1, 1)));

    Comparison c = Comparison.experiments(base, next, "mib_per_s", Options.DEFAULT);

    assertEquals(1, c.rows().size());
    assertEquals("read_ahead_kb=128/bs=64M", c.rows().get(0).label());
    assertEquals(List.of("read_ahead_kb=512/bs=64M"), c.onlyInBase());
    assertEquals(List.of("read_ahead_kb=2048/bs=64M"), c.onlyInNew());
  }

  @Test
  void theAxisSpecMayHoldEqualsSignsInItsValues() {
    Map<String, String> p1 = new LinkedHashMap<>();
    p1.put("case", "ra=128");
    p1.put("bs", "64M");
    Map<String, String> p2 = new LinkedHashMap<>();
    p2.put("case", "ra=2M/x:y");
    p2.put("bs", "64M");
    Stat s1 = new Stat("MiB/s", Summary.of(new double[] {100, 101, 99}));
    Stat s2 = new Stat("MiB/s", Summary.of(new double[] {200, 201, 199}));
    ReportData data =
        ReportData.builder(1, "x")
            .status(ExperimentStatus.FINISHED)
            .counts(new TrialCounts(6, 0, 0, 0, 0))
            .job("all", List.of("all"))
            .units(Map.of("mib_per_s", "MiB/s"))
            .paramNames(List.of("case", "bs"))
            .cells(
                List.of(
                    new Cell(1, "a", p1, List.of(), Map.of("mib_per_s", s1)),
                    new Cell(2, "b", p2, List.of(), Map.of("mib_per_s", s2))))
            .build();

    Comparison c = Comparison.axis(data, "case=ra=128,ra=2M/x:y", "mib_per_s", Options.DEFAULT);

    assertEquals("case=ra=128", c.base().name());
    assertEquals("case=ra=2M/x:y", c.next().name());
    assertEquals("bs=64M", c.rows().get(0).label());
    assertEquals(100.0, c.rows().get(0).change(), 1e-9);
  }

  @Test
  void theAxisMayBeNamedAsItsCellsLabelIt() {
    Cell a = cell(1, "128", "64M", 100, 101, 99);
    Cell b = cell(2, "4096", "64M", 150, 151, 149);
    ReportData data =
        experiment(
            1,
            "6.1",
            List.of(
                new Cell(1, "ra=128/bs=64M", a.params(), a.trials(), a.stats()),
                new Cell(2, "ra=4096/bs=64M", b.params(), b.trials(), b.stats())));

    Comparison c = Comparison.axis(data, "ra=128,4096", "mib_per_s", Options.DEFAULT);

    assertEquals("read_ahead_kb=128", c.base().name());
    assertEquals(50.0, c.rows().get(0).change(), 1e-9);
    TunelabException e =
        assertThrows(
            TunelabException.class,
            () -> Comparison.axis(data, "rb=128,4096", "mib_per_s", Options.DEFAULT));
    assertEquals(
        "experiment 1 (loop-readahead) has no axis 'rb' (axes: read_ahead_kb, bs); did you mean"
            + " 'ra'?",
        e.getMessage());
  }

  @Test
  void aPairWithoutValuesOnOneSideIsADashLineOutsideTheSums() {
    ReportData data =
        experiment(
            1,
            "6.1",
            List.of(
                cell(1, "128", "64M", 100, 101, 99),
                cell(2, "128", "1M", 50, 50.5, 49.5),
                cell(3, "512", "64M", 120, 121, 119),
                cell(4, "512", "1M")));

    Comparison c = Comparison.axis(data, "read_ahead_kb=128,512", "mib_per_s", Options.DEFAULT);

    assertEquals(1, c.rows().size());
    assertEquals(List.of("bs=64M", "bs=1M"), c.lines().stream().map(l -> l.label()).toList());
    Comparison.Gap gap = (Comparison.Gap) c.lines().get(1);
    assertEquals(50.0, gap.base().mean(), 1e-9);
    assertNull(gap.next());
    assertEquals(100.0, c.total().base(), 1e-9);
    assertEquals(1, c.gaps());
    assertEquals(List.of("bs=1M (new)"), c.unmeasured());
    String text = ReportFormat.TEXT.render(c);
    assertTrue(
        text.contains(
            " 50.000 ±0.8%        -  -                           -     -             -  3/0  bs=1M\n"),
        text);
    assertTrue(
        text.contains("-: no ok trial with mib_per_s on that side; 1 row left out of TOTAL"), text);
  }

  @Test
  void twoExperimentsShowTheCommandLinesThatDifferAndOnlyThose() {
    ReportData base =
        experiment(1, "6.1", List.of(booted(cell(1, "128", "64M", 100, 101, 99), "ro quiet")));
    ReportData next =
        experiment(
            2, "6.6", List.of(booted(cell(1, "128", "64M", 100, 101, 99), "ro quiet nosmt")));
    ReportData unrecorded = experiment(3, "6.6", List.of(cell(1, "128", "64M", 100, 101, 99)));

    Comparison c = Comparison.experiments(base, next, "mib_per_s", Options.DEFAULT);
    Comparison old = Comparison.experiments(base, unrecorded, "mib_per_s", Options.DEFAULT);
    Comparison same = Comparison.experiments(base, base, "mib_per_s", Options.DEFAULT);

    assertEquals(List.of("srv1"), c.cmdlineHosts());
    String text = ReportFormat.TEXT.render(c);
    assertTrue(
        text.contains("\ncmdline srv1 base: ro quiet\ncmdline srv1 new:  ro quiet nosmt\n"), text);
    assertFalse(text.contains("cli1"), text);
    assertTrue(ReportFormat.TEXT.render(old).contains("\ncmdline srv1 new:  (not recorded)\n"));
    assertEquals(List.of(), same.cmdlineHosts());
  }

  /** The cell with its trials run on a server booted with {@code cmdline}, the client as ever. */
  private static Cell booted(Cell c, String cmdline) {
    List<Trial> trials = new ArrayList<>();
    for (Trial t : c.trials()) {
      trials.add(
          new Trial(
              t.rep(),
              t.warmup(),
              t.status(),
              t.error(),
              t.values(),
              List.of(
                  new ReportData.Boot("cli1", "6.1", "c1", "ro"),
                  new ReportData.Boot("srv1", "6.x", "s" + t.rep(), cmdline))));
    }
    return new Cell(c.ordinal(), c.label(), c.params(), trials, c.stats());
  }

  @Test
  void aNoiseCheckDiffersOnlyWhenItWentFromOkToWarnNotWhenItsFiguresMoved() {
    ReportData base = experiment(1, "6.1", List.of(cell(1, "128", "64M", 100, 101, 99)));
    ReportData next = experiment(2, "6.1", List.of(cell(1, "128", "64M", 100, 101, 99)));
    RunConditions baseRan =
        new RunConditions(
            Map.of(
                "local",
                Map.of(
                    "noise.load", "warn: load 1.39 on 2 CPUs; fix: top",
                    "noise.swap", "ok: no swap")),
            Map.of(1, Map.of(RA, "128")));
    RunConditions newRan =
        new RunConditions(
            Map.of(
                "local",
                Map.of(
                    "noise.load", "warn: load 5.60 on 2 CPUs; fix: top",
                    "noise.swap", "warn: 2 GiB of swap; fix: swapoff -a")),
            Map.of(1, Map.of(RA, "128")));

    Comparison c =
        Comparison.experiments(base, baseRan, next, newRan, "mib_per_s", Options.DEFAULT);

    assertEquals(
        List.of("fact disk noise.swap ok: no swap → warn: 2 GiB of swap; fix: swapoff -a"),
        c.differences().stream().map(Comparison.Difference::text).toList());
  }

  @Test
  void theHeaderListsTheKnobsAndFactsThatDifferAndNothingElse() {
    ReportData base = experiment(1, "6.1", List.of(cell(1, "128", "64M", 100, 101, 99)));
    ReportData next = experiment(2, "6.1", List.of(cell(1, "128", "64M", 100, 101, 99)));
    RunConditions baseRan =
        new RunConditions(
            Map.of("local", Map.of("mem_kb", "8000", "cpus", "4", "boot_id", "a")),
            Map.of(1, Map.of(RA, "128", "local.vm.dirty_bytes", "0")));
    RunConditions newRan =
        new RunConditions(
            Map.of("local", Map.of("mem_kb", "16000", "cpus", "4", "boot_id", "b")),
            Map.of(1, Map.of(RA, "256", "local.vm.dirty_bytes", "0")));

    Comparison c =
        Comparison.experiments(base, baseRan, next, newRan, "mib_per_s", Options.DEFAULT);
    Comparison same =
        Comparison.experiments(base, baseRan, next, baseRan, "mib_per_s", Options.DEFAULT);

    assertEquals(
        List.of("knob " + RA + " 128 → 256", "fact disk mem_kb 8000 → 16000"),
        c.differences().stream().map(Comparison.Difference::text).toList());
    assertEquals(List.of(), same.differences());
    assertTrue(ReportFormat.TEXT.render(c).contains("\nknob " + RA + " 128 → 256\n"));
  }

  @Test
  void theComparedKnobIsNoDifferenceAndOthersSayInHowManyRows() {
    ReportData data =
        experiment(
            1,
            "6.1",
            List.of(
                cell(1, "128", "64M", 100, 101, 99),
                cell(2, "128", "1M", 50, 50.5, 49.5),
                cell(3, "512", "64M", 120, 121, 119),
                cell(4, "512", "1M", 60, 60.5, 59.5)));
    RunConditions ran =
        new RunConditions(
            Map.of(),
            Map.of(
                1, Map.of(RA, "128", "local.vm.dirty_bytes", "0"),
                2, Map.of(RA, "128", "local.vm.dirty_bytes", "0"),
                3, Map.of(RA, "512", "local.vm.dirty_bytes", "0"),
                4, Map.of(RA, "512", "local.vm.dirty_bytes", "10485760")));

    Comparison c =
        Comparison.axis(data, ran, "read_ahead_kb=128,512", "mib_per_s", Options.DEFAULT);

    assertEquals(
        List.of("knob local.vm.dirty_bytes 0 → 10485760 (1 of 2 rows)"),
        c.differences().stream().map(Comparison.Difference::text).toList());
  }

  @Test
  void badOptionsAreRefused() {
    assertThrows(TunelabException.class, () -> new Options(0, 1, 0.95));
    assertThrows(TunelabException.class, () -> new Options(0.05, -1, 0.95));
  }
}
