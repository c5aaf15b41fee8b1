package io.tunelab.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
    return new JobPlan(name, "local", kind, parser, bs, bytes, null, null, null, list);
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
    WorkloadPlan plan = new WorkloadPlan(List.of(job("cmd", Parser.NONE, 0, null, 1)), null, null);
    assertEquals(
        "cmd.0 seconds 1.5\ncmd seconds 1.5\nall seconds 1.5",
        text(
            Measurements.of(
                plan,
                List.of(new JobResult("cmd.0", 0, 0, 1_500_000_000L, List.of(), List.of())))));
  }

  @Test
  void aDdWithoutSummaryFailsNamingTheProcess() {
    WorkloadPlan plan = new WorkloadPlan(List.of(job("dd", Parser.DD, 4096, null, 1)), null, null);
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                Measurements.of(
                    plan, List.of(new JobResult("dd.0", 0, 0, 1, List.of(), List.of("oops")))));
    assertEquals("job dd.0: no dd summary line in its output", e.getMessage());
  }
}
