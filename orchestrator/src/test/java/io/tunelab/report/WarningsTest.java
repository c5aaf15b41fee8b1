package io.tunelab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tunelab.report.Warnings.Entry;
import io.tunelab.report.Warnings.Kind;
import io.tunelab.store.ReportData;
import io.tunelab.store.ReportData.Cell;
import io.tunelab.store.ReportData.Flag;
import io.tunelab.store.ReportData.Trial;
import io.tunelab.store.TrialStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How warnings read: an outlier with Grubbs' statistic, and cells too small to judge. */
class WarningsTest {
  @Test
  void anOutlierShowsItsStatisticAndTheCriticalValue() {
    Warnings w =
        new Warnings(
            "mib_per_s",
            "MiB/s",
            2,
            List.of(new Entry(Kind.OUTLIER, 2, "bs=1M", 6, 0.12, 4, 60.0, -2.04)));

    assertEquals(
        List.of(
            "  outlying repetitions (Grubbs' test, two-sided, 5% level), 1 repetition:",
            "    cell 2 (bs=1M) rep 4: 60.000 MiB/s, G = -2.04 (critical 1.89)"),
        w.lines("  "));
  }

  @Test
  void cellsTooSmallToJudgeAreListedUnlessEveryCellIs() {
    Entry three = new Entry(Kind.TOO_FEW_FOR_OUTLIERS, 1, "bs=64M", 3, 0.01, 0, Double.NaN, 0);
    Entry five = new Entry(Kind.TOO_FEW_FOR_OUTLIERS, 2, "bs=1M", 5, 0.01, 0, Double.NaN, 0);

    assertEquals(
        List.of(
            "too few repetitions to judge outliers (Grubbs' test needs 6), 1 cell:",
            "  cell 1 (bs=64M): n = 3"),
        new Warnings("seconds", "s", 2, List.of(three)).lines(""));
    assertEquals(
        List.of(
            "every measured cell (2) has too few repetitions to judge outliers"
                + " (n = 3..5; Grubbs' test needs 6)"),
        new Warnings("seconds", "s", 2, List.of(three, five)).lines(""));
  }

  @Test
  void flaggedTrialsAreCountedPerFlagWithWhereAndWhatOnFlagDidWithThem() {
    Trial clean = trial(1, List.of());
    Trial dmesg = trial(2, List.of(new Flag("dmesg", "client")));
    Trial both =
        trial(3, List.of(new Flag("knob_drift", "server"), new Flag("dmesg", "client, server")));
    Trial warmup =
        new Trial(
            0,
            true,
            TrialStatus.OK,
            null,
            Map.of("seconds", 1.0),
            List.of(),
            List.of(new Flag("swap", "client")),
            false);
    List<Cell> cells =
        List.of(new Cell(1, "", Map.of(), List.of(warmup, clean, dmesg, both), Map.of()));

    assertEquals(
        List.of(
            "2 trial(s) flagged: dmesg 2 (client, server), knob_drift 1 (server);"
                + " on_flag keep: they are in the statistics"),
        Warnings.flagged(cells, "keep"));
    assertEquals(
        List.of(
            "  2 trial(s) flagged: dmesg 2 (client, server), knob_drift 1 (server);"
                + " on_flag exclude: they are left out of the statistics"),
        Warnings.of(
                cells,
                "seconds",
                "s",
                Cell::label,
                new ReportData.About(null, null, null, null, "exclude", List.of()))
            .lines("  ")
            .subList(0, 1));
    assertEquals(
        List.of(),
        Warnings.flagged(List.of(new Cell(1, "", Map.of(), List.of(clean), Map.of())), "keep"));
  }

  @Test
  void aKnobTheKernelHeldOtherThanAskedIsSaidOnce() {
    Trial ok = trial(1, List.of());
    List<Cell> cells = List.of(new Cell(1, "", Map.of(), List.of(ok), Map.of()));
    ReportData.About about =
        new ReportData.About(
            null,
            null,
            null,
            null,
            "keep",
            List.of(
                new ReportData.Readback(
                    "disk", "local", "block.loop3.read_ahead_kb", "1024", "2560", 3)));
    assertEquals(
        List.of(
            "knob block.loop3.read_ahead_kb on local (disk) read back 2560 after 1024 was"
                + " written, in 3 ok trial(s): they measured the value read back"),
        Warnings.of(cells, "seconds", "s", Cell::label, about).readbacks());
  }

  private static Trial trial(int rep, List<Flag> flags) {
    return new Trial(
        rep, false, TrialStatus.OK, null, Map.of("seconds", (double) rep), List.of(), flags, false);
  }
}
