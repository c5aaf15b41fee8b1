package io.tunelab.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TransferTest {
  private static JobPlan job(String name, String role, JobKind kind, String... argv) {
    return new JobPlan(
        name,
        role,
        kind,
        Parser.NONE,
        0,
        null,
        null,
        null,
        null,
        null,
        null,
        List.of(new ProcessPlan(name + ".0", List.of(argv), null)));
  }

  private static WorkloadPlan plan(JobPlan... jobs) {
    return new WorkloadPlan(List.of(jobs), null, null, null);
  }

  @Test
  void ddMovesItsBytesInTheDirectionsAFileOrDiskIsOn() {
    WorkloadPlan plan =
        plan(
            job("reader", "client", JobKind.DD, "dd", "if=/dev/sdb", "of=/dev/null", "bs=1048576"),
            job("writer", "client", JobKind.DD, "dd", "if=/dev/zero", "of=/var/tmp/w"),
            job("copier", "server", JobKind.DD, "dd", "if=/var/tmp/a", "of=/var/tmp/b"),
            job("zeros", "server", JobKind.DD, "dd", "if=/dev/zero", "of=/dev/null"));
    List<Sample> samples =
        List.of(
            new Sample("reader", "bytes", 100, "B"),
            new Sample("writer", "bytes", 20, "B"),
            new Sample("copier", "bytes", 7, "B"),
            new Sample("zeros", "bytes", 1000, "B"),
            new Sample("all", "bytes", 1127, "B"));

    assertEquals(
        Map.of("client", new Transfer(100, 20), "server", new Transfer(7, 7)),
        Transfer.byRole(plan, samples));
  }

  @Test
  void aJobThatReportsItsDirectionsIsTakenAtItsWordACommandWithoutThemMovesNothingKnown() {
    WorkloadPlan plan =
        plan(
            job("fio", "client", JobKind.FIO, "fio", "-"),
            job("cp", "client", JobKind.COMMAND, "sh", "-c", "cp a b"));
    List<Sample> samples =
        List.of(
            new Sample("fio", "read_bytes", 300, "B"),
            new Sample("fio", "write_bytes", 100, "B"),
            new Sample("fio", "bytes", 400, "B"),
            new Sample("cp", "bytes", 50, "B"));

    assertEquals(Map.of("client", new Transfer(300, 100)), Transfer.byRole(plan, samples));
  }
}
