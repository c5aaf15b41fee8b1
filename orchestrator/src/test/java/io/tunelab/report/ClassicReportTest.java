package io.tunelab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.stats.Summary;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.ReportData;
import io.tunelab.store.ReportData.Cell;
import io.tunelab.store.ReportData.Stat;
import io.tunelab.store.ReportData.Trial;
import io.tunelab.store.TrialCounts;
import io.tunelab.store.TrialStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClassicReportTest {
  @Test
  void headlineCountsWhatIsNotOk() {
    ReportData data =
        ReportData.builder(7, "nfs")
            .status(ExperimentStatus.RUNNING)
            .counts(new TrialCounts(12, 1, 2, 3, 1))
            .job("all", List.of("all"))
            .units(Map.of())
            .paramNames(List.of())
            .cells(List.of())
            .build();

    assertEquals(
        "nfs (experiment 7, running): 12 of 19 trials ok; 1 failed, 2 skipped, 3 pending, 1"
            + " running",
        ClassicReport.headline(data));
  }

  @Test
  void knobAxesAreShortenedUnlessTwoWouldClash() {
    assertEquals(
        Map.of(
            "client.block.sdb.read_ahead_kb", "client.block.sdb.read_ahead_kb",
            "server.block.sdb.read_ahead_kb", "server.block.sdb.read_ahead_kb",
            "server.block.${dev}.iosched.fifo_batch", "fifo_batch",
            "disk.sysfs:/sys/kernel/mm/transparent_hugepage/enabled", "enabled",
            "bs", "bs"),
        ClassicReport.shortNames(
            List.of(
                "client.block.sdb.read_ahead_kb",
                "server.block.sdb.read_ahead_kb",
                "server.block.${dev}.iosched.fifo_batch",
                "disk.sysfs:/sys/kernel/mm/transparent_hugepage/enabled",
                "bs")));
  }

  @Test
  void aReportedJobOtherThanTheAggregateIsNamed() {
    Cell cell =
        new Cell(
            1,
            "",
            Map.of(),
            List.of(new Trial(1, false, TrialStatus.OK, null, Map.of("seconds", 2.0))),
            Map.of("seconds", new Stat("s", Summary.of(new double[] {2.0}))));
    ReportData data =
        ReportData.builder(1, "one")
            .status(ExperimentStatus.FINISHED)
            .counts(new TrialCounts(1, 0, 0, 0, 0))
            .job("dd.0", List.of("dd.0"))
            .units(Map.of("seconds", "s"))
            .paramNames(List.of())
            .cells(List.of(cell))
            .build();

    String report = ClassicReport.render(data);

    assertTrue(report.contains("\njob: dd.0\n"), report);
    assertTrue(report.contains("\n\n   t1  mean(s)  std(s)\n2.000    2.000   0.000\n\n"), report);
    assertTrue(report.endsWith("\n    cell 1: n = 1\n"), report);
  }

  @Test
  void theIopsNoteIsThereOnlyWithABlockSizeOfOneMebibyteOrMore() {
    assertTrue(render("512k", "1M").contains("; IOPS = MiB/s at bs=1M"));
    assertTrue(render("4k", "2G").contains("; IOPS = MiB/s at bs=1M"));
    assertFalse(render("4k", "512k").contains("IOPS ="));
    assertFalse(render("4k", "${big}").contains("IOPS ="));
  }

  /** The classic report of two cells at these block sizes, with MiB/s and IOPS. */
  private static String render(String... sizes) {
    List<Cell> cells = new ArrayList<>();
    for (String bs : sizes) {
      Stat mib = new Stat("MiB/s", Summary.of(new double[] {100}));
      Stat iops = new Stat("IO/s", Summary.of(new double[] {100}));
      cells.add(
          new Cell(
              cells.size() + 1,
              "bs=" + bs,
              Map.of("bs", bs),
              List.of(new Trial(1, false, TrialStatus.OK, null, Map.of("seconds", 1.0))),
              Map.of("mib_per_s", mib, "iops", iops)));
    }
    ReportData data =
        ReportData.builder(1, "sizes")
            .status(ExperimentStatus.FINISHED)
            .counts(new TrialCounts(cells.size(), 0, 0, 0, 0))
            .job("all", List.of("all"))
            .units(Map.of("mib_per_s", "MiB/s", "iops", "IO/s"))
            .paramNames(List.of("bs"))
            .cells(cells)
            .build();
    return ClassicReport.render(data);
  }
}
