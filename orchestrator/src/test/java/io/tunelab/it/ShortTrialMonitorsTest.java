package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.store.MonitorSample;
import io.tunelab.testing.Integration;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A trial shorter than its monitors' interval still gets their figures: a 0.3 s dd under a 1 s
 * vmstat and iostat stores {@code vmstat@local} {@code us}/{@code sy}/{@code id}/{@code wa} and
 * {@code iostat@local:DEV} from the kernel's counters at the monitors' start and the trial's stop.
 */
@Integration
class ShortTrialMonitorsTest {
  @TempDir Path dir;
  @RegisterExtension final LoopDiskExtension disks = new LoopDiskExtension(64);
  LoopDisk disk;

  @BeforeEach
  void disk() throws Exception {
    Lab.requireCommands("vmstat", "iostat");
    disk = disks.disk();
  }

  @Test
  void aTrialShorterThanOneIntervalHasItsMonitorFigures() throws Exception {
    WorkloadRun run =
        WorkloadRun.of(
            dir,
            """
            name: short-monitored
            monitors:
              - vmstat
              - { run: iostat, devices: [DEV] }
            workload:
              duration: 300ms
              dd: {input: /dev/DEV, output: /dev/null, bs: 4k, count: 100000000, flags: [iflag=direct]}
            """
                .replace("DEV", disk.dev));

    assertEquals(1, run.summary().ok(), run.out().toString());
    assertTrue(run.sample("dd.0", "seconds") < 1, "the trial is shorter than one interval");
    double sum = 0;
    for (String metric : List.of("us", "sy", "id", "wa", "st")) {
      double v = run.sample("vmstat@local", metric);
      assertTrue(v >= 0 && v <= 100, metric + " " + v);
      sum += v;
    }
    assertEquals(100, sum, 1e-6, "shares of the CPU time that passed");
    assertTrue(run.sample("iostat@local:" + disk.dev, "r_per_s") > 0);
    double util = run.sample("iostat@local:" + disk.dev, "util_pct");
    assertTrue(util > 0 && util <= 100, "util " + util);
    List<MonitorSample> rows = run.results().get(0).monitorRows();
    // The monitors ran well under their first interval: no row, the figures are the counters'.
    assertEquals(
        List.of(),
        rows.stream().filter(r -> r.monitor().equals("vmstat")).toList(),
        "vmstat printed a row after its first second");
  }
}
