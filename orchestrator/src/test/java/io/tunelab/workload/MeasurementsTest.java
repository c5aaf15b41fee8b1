package io.tunelab.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.RepoFiles;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class MeasurementsTest {
  private static final String DD_LINE = " bytes (x) copied, ";

  private static ProcessPlan process(String name) {
    return new ProcessPlan(name, List.of("true"), null);
  }

  private static JobPlan job(String name, Parser parser, long bs, Long bytes, int processes) {
    List<ProcessPlan> list =
        java.util.stream.IntStream.range(0, processes)
            .mapToObj(i -> process(name + "." + i))
            .toList();
    JobKind kind = parser == Parser.DD ? JobKind.DD : JobKind.COMMAND;
    return new JobPlan(name, "local", kind, parser, bs, bytes, null, null, null, null, null, list);
  }

  private static JobResult dd(String name, long bytes, double seconds) {
    return new JobResult(
        name, 0, 0, 1, List.of(), List.of(bytes + DD_LINE + seconds + " s, 1 MB/s"));
  }

  private static String text(List<Sample> samples) {
    return samples.stream()
        .map(s -> s.job() + " " + s.metric() + " " + s.value())
        .collect(Collectors.joining("\n"));
  }

  @Test
  void eachProcessEachJobAndAll() {
    WorkloadPlan plan =
        new WorkloadPlan(
            List.of(job("w", Parser.DD, 1048576, null, 2), job("c", Parser.NONE, 0, 1048576L, 1)),
            null,
            null,
            null);
    List<JobResult> results =
        List.of(
            dd("w.0", 2097152, 1.0),
            dd("w.1", 2097152, 2.0),
            new JobResult("c.0", 0, 0, 4_000_000_000L, List.of(), List.of()));
    assertEquals(
        String.join(
            "\n",
            "w.0 seconds 1.0",
            "w.0 bytes 2097152.0",
            "w.0 mib_per_s 2.0",
            "w.0 iops 2.0",
            "w.1 seconds 2.0",
            "w.1 bytes 2097152.0",
            "w.1 mib_per_s 1.0",
            "w.1 iops 1.0",
            "w seconds 2.0",
            "w bytes 4194304.0",
            "w mib_per_s 2.0",
            "w iops 2.0",
            "c.0 seconds 4.0",
            "c.0 bytes 1048576.0",
            "c.0 mib_per_s 0.25",
            "c seconds 4.0",
            "c bytes 1048576.0",
            "c mib_per_s 0.25",
            "all seconds 4.0",
            "all bytes 5242880.0",
            "all mib_per_s 1.25"),
        text(Measurements.of(plan, results)));
  }

  @Test
  void withoutBytesOnlySecondsAreRecorded() {
    WorkloadPlan plan =
        new WorkloadPlan(List.of(job("cmd", Parser.NONE, 0, null, 1)), null, null, null);
    assertEquals(
        "cmd.0 seconds 1.5\ncmd seconds 1.5\nall seconds 1.5",
        text(
            Measurements.of(
                plan,
                List.of(new JobResult("cmd.0", 0, 0, 1_500_000_000L, List.of(), List.of())))));
  }

  @Test
  void aDdWithoutSummaryFailsNamingTheProcess() {
    WorkloadPlan plan =
        new WorkloadPlan(List.of(job("dd", Parser.DD, 4096, null, 1)), null, null, null);
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                Measurements.of(
                    plan, List.of(new JobResult("dd.0", 0, 0, 1, List.of(), List.of("oops")))));
    assertEquals("job dd.0: no dd summary line in its output", e.getMessage());
  }

  private static JobResult fio(String name, String capture) {
    return new JobResult(
        name,
        0,
        0,
        2_000_000_000L,
        Captures.lines(RepoFiles.testResources("workload/fio/" + capture + ".stdout")),
        List.of());
  }

  private static double value(List<Sample> samples, String job, String metric) {
    return samples.stream()
        .filter(s -> s.job().equals(job) && s.metric().equals(metric))
        .findFirst()
        .orElseThrow(() -> new AssertionError(job + " " + metric + " in " + text(samples)))
        .value();
  }

  private static boolean has(List<Sample> samples, String job, String metric) {
    return samples.stream().anyMatch(s -> s.job().equals(job) && s.metric().equals(metric));
  }

  @Test
  void fioProcessesAddUpTheirRatesAndKeepTheWorstPercentile() {
    WorkloadPlan plan =
        new WorkloadPlan(List.of(job("reader", Parser.FIO, 0, null, 2)), null, null, null);
    List<Sample> samples =
        Measurements.of(
            plan,
            List.of(
                fio("reader.0", "randread-libaio-qd8"), fio("reader.1", "randread-io_uring-qd8")));

    FioOutput a = FioOutput.parse(fio("x", "randread-libaio-qd8").stdout(), List.of());
    FioOutput b = FioOutput.parse(fio("x", "randread-io_uring-qd8").stdout(), List.of());
    double iopsA = metric(a, "read_iops");
    double iopsB = metric(b, "read_iops");
    // per process: fio's figures and the host-timed seconds
    assertEquals(2.0, value(samples, "reader.0", "seconds"));
    assertEquals(iopsA, value(samples, "reader.0", "read_iops"));
    assertEquals(metric(a, "read_clat_p99_us"), value(samples, "reader.0", "read_clat_p99_us"));
    assertEquals(metric(a, "mib_per_s"), value(samples, "reader.0", "mib_per_s"));
    // the job and the trial: sums, the worst percentile, latency weighted by IOPS, mean CPU
    for (String job : List.of("reader", "all")) {
      assertEquals(iopsA + iopsB, value(samples, job, "read_iops"), 1e-6);
      assertEquals(iopsA + iopsB, value(samples, job, "iops"), 1e-6);
      assertEquals(
          metric(a, "mib_per_s") + metric(b, "mib_per_s"), value(samples, job, "mib_per_s"), 1e-6);
      assertEquals(
          metric(a, "bytes") + metric(b, "bytes"), value(samples, job, "read_bytes"), 1e-6);
      assertEquals(
          Math.max(metric(a, "read_clat_p99_us"), metric(b, "read_clat_p99_us")),
          value(samples, job, "read_clat_p99_us"));
      assertEquals(
          (metric(a, "read_lat_mean_us") * iopsA + metric(b, "read_lat_mean_us") * iopsB)
              / (iopsA + iopsB),
          value(samples, job, "read_lat_mean_us"),
          1e-9);
      assertEquals(
          (metric(a, "cpu_sys_pct") + metric(b, "cpu_sys_pct")) / 2,
          value(samples, job, "cpu_sys_pct"),
          1e-9);
      assertFalse(has(samples, job, "write_iops"), "a read job has no write metrics");
    }
  }

  private static double metric(FioOutput out, String name) {
    return out.metrics().stream()
        .filter(m -> m.name().equals(name))
        .findFirst()
        .orElseThrow()
        .value();
  }

  @Test
  void aWriterAndAReaderEachKeepTheirOwnFigures() {
    WorkloadPlan plan =
        new WorkloadPlan(
            List.of(
                job("writer", Parser.DD, 1048576, null, 1), job("reader", Parser.FIO, 0, null, 1)),
            null,
            null,
            null);
    List<Sample> samples =
        Measurements.of(
            plan, List.of(dd("writer.0", 4194304, 2.0), fio("reader.0", "randread-sync")));

    assertEquals(2.0, value(samples, "writer", "mib_per_s"));
    assertEquals(2.0, value(samples, "writer", "iops"));
    assertTrue(has(samples, "reader", "read_clat_p99_us"));
    // all: bytes of both, the slowest seconds, no IOPS (dd's and fio's do not add up)
    FioOutput r = FioOutput.parse(fio("x", "randread-sync").stdout(), List.of());
    assertEquals(4194304 + metric(r, "bytes"), value(samples, "all", "bytes"));
    assertEquals(2.0, value(samples, "all", "seconds"));
    assertFalse(has(samples, "all", "iops"));
    assertTrue(has(samples, "all", "read_iops"), "the reader's direction metrics stay");
  }

  @Test
  void printedMetricsBelongToTheProcessThatPrintedThem() {
    List<String> stdout = Captures.lines(RepoFiles.testResources("workload/metrics/mixed.stdout"));
    WorkloadPlan one =
        new WorkloadPlan(List.of(job("cmd", Parser.METRICS, 0, null, 1)), null, null, null);
    List<Sample> single =
        Measurements.of(
            one, List.of(new JobResult("cmd.0", 0, 0, 1_250_000_000L, stdout, List.of())));
    for (String job : List.of("cmd.0", "cmd", "all")) {
      assertEquals(412.5, value(single, job, "p99_latency_us"));
      assertEquals(268435456.0, value(single, job, "bytes"), "a printed bytes is the bytes");
      assertEquals(1.25, value(single, job, "seconds"));
      assertEquals(204.8, value(single, job, "mib_per_s"), 1e-9);
    }

    WorkloadPlan two =
        new WorkloadPlan(List.of(job("cmd", Parser.METRICS, 0, null, 2)), null, null, null);
    List<Sample> pair =
        Measurements.of(
            two,
            List.of(
                new JobResult("cmd.0", 0, 0, 1, stdout, List.of()),
                new JobResult("cmd.1", 0, 0, 1, stdout, List.of())));
    assertTrue(has(pair, "cmd.1", "p99_latency_us"));
    assertFalse(has(pair, "cmd", "p99_latency_us"), "two processes' values are not combined");
    assertEquals(2 * 268435456.0, value(pair, "cmd", "bytes"));
  }

  @Test
  void aProcessFailsItsTrialInItsOwnWords() {
    JobPlan fioJob = job("f", Parser.FIO, 0, null, 1);
    JobResult notADir =
        new JobResult(
            "f.0",
            1,
            0,
            1,
            Captures.lines(RepoFiles.testResources("workload/fio/fail-not-a-directory.stdout")),
            Captures.lines(RepoFiles.testResources("workload/fio/fail-not-a-directory.stderr")));
    assertEquals(
        "fio: pid=0, err=20/file:filesetup.c:455, func=fstat, error=Not a directory",
        Measurements.problem(fioJob, notADir, Stopped.NO));
    assertNull(Measurements.problem(fioJob, fio("f.0", "read-sigint"), Stopped.INTERRUPTED));

    JobPlan ddJob = job("dd", Parser.DD, 1048576, null, 1);
    JobResult interrupted =
        new JobResult("dd.0", 130, 0, 1, List.of(), List.of("5" + DD_LINE + "3.0 s, 1 MB/s"));
    assertNull(Measurements.problem(ddJob, interrupted, Stopped.INTERRUPTED));
    assertEquals(
        "exited 130: 5 bytes (x) copied, 3.0 s, 1 MB/s",
        Measurements.problem(ddJob, interrupted, Stopped.NO));
    assertEquals(
        "did not end within the grace period after SIGINT at the duration, and was killed",
        Measurements.problem(ddJob, interrupted, Stopped.KILLED));
    assertEquals(
        "no dd summary line in its output",
        Measurements.problem(
            ddJob, new JobResult("dd.0", 0, 0, 1, List.of(), List.of()), Stopped.NO));

    JobPlan metrics = job("m", Parser.METRICS, 0, null, 1);
    assertEquals(
        "parser metrics found no NAME VALUE [UNIT] line; last line read: \"IOPS=52k\"",
        Measurements.problem(
            metrics, new JobResult("m.0", 0, 0, 1, List.of("IOPS=52k"), List.of()), Stopped.NO));
    assertEquals(
        "exited 2: no such file",
        Measurements.problem(
            job("c", Parser.NONE, 0, null, 1),
            new JobResult("c.0", 2, 0, 1, List.of(), List.of("no such file", "")),
            Stopped.NO));
  }

  @Test
  void monitorMeansAreSamplesOfTheMonitorAndItsDevices() {
    List<String> iostat =
        Captures.lines(RepoFiles.testResources("workload/monitor/iostat-1s-count3.out"));
    MonitorPlan plan =
        new MonitorPlan(
            "iostat",
            "server",
            Duration.ofSeconds(1),
            List.of(),
            "iostat@server",
            MonitorOutput.argv("iostat", Duration.ofSeconds(1), List.of()));
    MonitorOutput out = MonitorOutput.parse("iostat", iostat, Duration.ofSeconds(1));

    List<Sample> samples = Measurements.monitor(plan, out);

    MonitorMean util =
        out.means().stream()
            .filter(m -> m.device().equals("vda") && m.metric().equals("util_pct"))
            .findFirst()
            .orElseThrow();
    assertEquals(util.value(), value(samples, "iostat@server:vda", "util_pct"));
    assertTrue(has(samples, "iostat@server:loop0", "r_per_s"));
    assertEquals(
        new Sample("iostat@server:vda", "util_pct", util.value(), "%"),
        samples.stream()
            .filter(s -> s.job().equals("iostat@server:vda") && s.metric().equals("util_pct"))
            .findFirst()
            .orElseThrow());
  }
}
