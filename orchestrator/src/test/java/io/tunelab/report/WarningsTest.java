package io.tunelab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tunelab.report.Warnings.Entry;
import io.tunelab.report.Warnings.Kind;
import java.util.List;
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
}
