package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.store.MonitorSample;
import io.tunelab.store.ProcessRecord;
import io.tunelab.store.TrialOutput;
import io.tunelab.store.TrialResult;
import io.tunelab.store.TrialStatus;
import io.tunelab.testing.Integration;
import io.tunelab.testing.TestTime;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A trial's jobs run for real on this machine: real dd, fio, ionice and sysstat against a loop disk
 * the test creates. Trial results are checked as the runner hands them to the store (process
 * records, monitor rows, fio's JSON) and samples as the store wrote them.
 */
@Integration
class WorkloadJobsTest {
  @TempDir Path dir;
  @RegisterExtension final LoopDiskExtension disks = new LoopDiskExtension(64);
  LoopDisk disk;

  @BeforeEach
  void disk() throws Exception {
    for (String tool : List.of("fio", "ionice", "vmstat", "iostat")) {
      Lab.requireCommands(tool);
    }
    disk = disks.disk();
  }

  @AfterEach
  void release() throws Exception {
    if (disk == null) {
      return;
    }
    String left = "";
    for (int i = 0; i < 30; i++) {
      // kernel threads ([kworker/u8:1-loop4]) are the kernel's, not ours
      left = LoopDisk.sh("pgrep -af '" + disk.dev + "' | grep -v 'pgrep\\| \\[' || true").trim();
      if (left.isEmpty()) {
        break;
      }
      Thread.sleep(100);
    }
    assertEquals("", left, "processes left behind");
  }

  private WorkloadRun run(String matrix) {
    return WorkloadRun.of(dir, matrix.replace("DEV", disk.dev));
  }

  private static ProcessRecord process(TrialResult trial, String name) {
    return trial.processes().stream()
        .filter(p -> p.process().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no process " + name + " in " + trial.processes()));
  }

  @Test
  void anIdleWriterAndARealtimeDirectReaderStartTogetherAndKeepTheirOwnFigures() throws Exception {
    WorkloadRun run =
        run(
            """
            name: reader-vs-writer
            repeat: 2
            workload:
              jobs:
                writer:
                  ionice: idle
                  dd: {input: /dev/zero, output: /dev/DEV, bs: 1M, count: 24, flags: [oflag=direct]}
                reader:
                  ionice: rt/0
                  dd: {input: /dev/DEV, output: /dev/null, bs: 1M, count: 24, flags: [iflag=direct]}
            """);

    assertEquals(2, run.summary().ok(), run.out().toString());
    for (TrialResult trial : run.results()) {
      assertEquals(TrialStatus.OK, trial.status(), trial.error());
      ProcessRecord writer = process(trial, "writer.0");
      ProcessRecord reader = process(trial, "reader.0");
      assertEquals("idle", writer.ionice());
      assertEquals("realtime: prio 0", reader.ionice());
      assertEquals(List.of("writer", "reader"), List.of(writer.job(), reader.job()));
      assertEquals("local", writer.host());
      assertFalse(writer.stopped());
    }
    for (String job : List.of("writer", "writer.0", "reader", "reader.0")) {
      assertEquals(24 * 1048576.0, run.sample(job, "bytes"), job);
      assertTrue(run.sample(job, "mib_per_s") > 0, job);
      assertTrue(run.sample(job, "seconds") > 0, job);
    }
    assertEquals(48 * 1048576.0, run.sample("all", "bytes"));
    assertEquals(
        List.of(List.of("2")),
        run.rows("select n from cell_stats where job = 'reader' and metric = 'mib_per_s'"));
    // the effective classes are stored with each process
    assertEquals(
        List.of(List.of("reader", "realtime: prio 0", "2"), List.of("writer", "idle", "2")),
        run.rows(
            "select job, ionice, count(*) from trial_processes group by job, ionice order by job"));
  }

  @Test
  void aFioMatrixStoresBandwidthIopsAndTheP99OfEveryCell() throws Exception {
    WorkloadRun run =
        run(
            """
            name: fio-engines
            matrix:
              engine: [sync, libaio]
              depth: [1, 8]
            workload:
              fio:
                rw: randread
                bs: 4k
                ioengine: ${engine}
                iodepth: ${depth}
                direct: 1
                size: 8MiB
                filename: /dev/DEV
            """);

    assertEquals(4, run.summary().ok(), run.out().toString());
    for (String metric : List.of("read_mib_per_s", "read_iops", "read_clat_p99_us")) {
      List<List<String>> cells =
          run.rows(
              "select count(*), min(mean) from cell_stats where job = 'all' and metric = '"
                  + metric
                  + "'");
      assertEquals("4", cells.get(0).get(0), metric);
      assertTrue(Double.parseDouble(cells.get(0).get(1)) > 0, metric);
    }
    double read = run.sample("fio.0", "read_bytes");
    assertTrue(read > 0 && read <= 8 * 1048576.0, "read " + read + " bytes");
    for (TrialResult trial : run.results()) {
      List<TrialOutput> kept = trial.outputs();
      assertEquals(1, kept.size(), kept.toString());
      assertEquals("fio.0", kept.get(0).process());
      assertEquals("fio-json", kept.get(0).kind());
      assertTrue(kept.get(0).text().startsWith("{") && kept.get(0).text().contains("\"read\""));
    }
    // fio's whole JSON is kept with every trial, compressed
    assertEquals(
        List.of(List.of(Integer.toString(run.results().size()))),
        run.rows(
            "select count(*) from trial_outputs where kind = 'fio-json' and length(data) > 0"));
  }

  @Test
  void aThreeSecondDurationStopsAWriterAndKeepsWhatItDid() throws Exception {
    long t0 = System.nanoTime();
    WorkloadRun run =
        run(
            """
            name: timed-writer
            workload:
              duration: 3s
              timeout: 30s
              dd: {input: /dev/zero, output: /dev/null, bs: 64K, count: 1000000000}
            """);
    double wall = (System.nanoTime() - t0) / 1e9;

    assertEquals(1, run.summary().ok(), run.out().toString());
    double seconds = run.sample("dd.0", "seconds");
    assertTrue(
        seconds >= 2.9 && seconds < 3 + TestTime.millis(1000) / 1e3, "dd ran " + seconds + " s");
    assertTrue(run.sample("dd.0", "bytes") > 0);
    assertTrue(run.sample("all", "mib_per_s") > 0);
    assertTrue(process(run.results().get(0), "dd.0").stopped());
    assertTrue(wall < TestTime.seconds(15), "took " + wall + " s");
  }

  @Test
  void aJobThatHangsPastTheTimeoutFailsItsTrialAndTheRunGoesOn() throws Exception {
    long t0 = System.nanoTime();
    WorkloadRun run =
        run(
            """
            name: hang
            matrix:
              secs: [30, 0]
            workload:
              timeout: 1s
              command: sleep ${secs}
            """);
    double wall = (System.nanoTime() - t0) / 1e9;

    assertEquals(1, run.summary().ok(), run.out().toString());
    assertEquals(1, run.summary().failed(), run.out().toString());
    TrialResult hung = run.results().get(0);
    assertEquals(TrialStatus.FAILED, hung.status());
    assertTrue(hung.error().contains("cmd.0 timed out"), hung.error());
    assertEquals(124, process(hung, "cmd.0").exitCode());
    assertEquals(TrialStatus.OK, run.results().get(1).status());
    assertEquals(
        List.of(List.of("failed"), List.of("ok")),
        run.rows("select status from trials order by seq"));
    assertTrue(wall < TestTime.seconds(15), "took " + wall + " s");
  }

  @Test
  void vmstatAndIostatMeansBecomeSamples() throws Exception {
    WorkloadRun run =
        run(
            """
            name: monitored
            monitors:
              - vmstat
              - { run: iostat, devices: [DEV] }
            workload:
              duration: 2500ms
              command: while :; do dd if=/dev/DEV of=/dev/null bs=4k iflag=direct status=none; done
            """);

    assertEquals(1, run.summary().ok(), run.out().toString());
    for (String metric : List.of("us", "sy", "id", "wa")) {
      assertNotNull(run.sample("vmstat@local", metric));
    }
    assertTrue(run.sample("iostat@local:" + disk.dev, "r_per_s") > 0);
    assertTrue(run.sample("iostat@local:" + disk.dev, "util_pct") >= 0);
    List<MonitorSample> rows = run.results().get(0).monitorRows();
    Map<String, Long> perMonitor =
        rows.stream().collect(Collectors.groupingBy(MonitorSample::monitor, Collectors.counting()));
    assertTrue(perMonitor.getOrDefault("vmstat", 0L) >= 17, perMonitor.toString());
    assertTrue(
        rows.stream().anyMatch(r -> r.monitor().equals("iostat") && r.device().equals(disk.dev)),
        rows.toString());
    // every interval row is in the database too, as users query it
    assertEquals(
        List.of(List.of(Long.toString(perMonitor.get("vmstat")))),
        run.rows("select count(*) from monitor_samples where monitor = 'vmstat'"));
    assertEquals(
        List.of(List.of("1")),
        run.rows(
            "select count(distinct t) > 0 from monitor_samples where monitor = 'iostat'"
                + " and device = '"
                + disk.dev
                + "' and metric = 'r_per_s'"));
  }
}
