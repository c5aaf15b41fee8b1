package io.tunelab.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.MatrixException;
import io.tunelab.matrix.MatrixLoader;
import io.tunelab.matrix.Substitution;
import io.tunelab.plan.ExperimentPlan;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkloadPlannerTest {
  private static Matrix load(String yaml) {
    return MatrixLoader.load(
        "m.yaml", yaml, path -> "[seq]\nrw=read\nfilename=/var/tmp/f${proc}\niodepth=${depth}\n");
  }

  private static WorkloadPlan plan(String yaml, Map<String, String> vars) {
    return WorkloadPlanner.plan(load(yaml).workload(), vars);
  }

  @Test
  void theDdShortFormIsOneJobNamedDdWithTodaysArgv() {
    WorkloadPlan plan =
        plan(
            "name: d\nworkload:\n  dd: {input: /dev/zero, output: /var/tmp/f, bs: 1M,"
                + " total: 4M, flags: [conv=fdatasync], processes: 2}\n",
            Map.of("rep", "1"));
    assertEquals(1, plan.jobs().size());
    JobPlan dd = plan.jobs().get(0);
    assertEquals("dd", dd.name());
    assertEquals("local", dd.role());
    assertEquals(JobKind.DD, dd.kind());
    assertEquals(Parser.DD, dd.parser());
    assertEquals(1048576, dd.blockBytes());
    assertNull(dd.ionice());
    assertEquals(
        List.of(
            new ProcessPlan(
                "dd.0",
                List.of(
                    "dd",
                    "if=/dev/zero",
                    "of=/var/tmp/f",
                    "bs=1048576",
                    "count=4",
                    "conv=fdatasync"),
                null),
            new ProcessPlan(
                "dd.1",
                List.of(
                    "dd",
                    "if=/dev/zero",
                    "of=/var/tmp/f",
                    "bs=1048576",
                    "count=4",
                    "seek=4",
                    "conv=fdatasync,notrunc"),
                null)),
        dd.processes());
    assertNull(plan.duration());
    assertNull(plan.timeout());
  }

  @Test
  void jobsResolveTheirCommonKeysAndTimeLimits() {
    String yaml =
        "name: j\n"
            + "roles: {client: local, server: srv1}\n"
            + "matrix:\n  cls: [rt/0]\n  engine: [libaio]\n"
            + "workload:\n"
            + "  duration: 3s\n  timeout: 2m\n"
            + "  jobs:\n"
            + "    reader:\n"
            + "      on: server\n      ionice: ${cls}\n      nice: -5\n      cpus: 0-1\n"
            + "      fio: {rw: read, ioengine: \"${engine}\", time_based: , filename: \"/f${proc}\"}\n"
            + "    copier:\n"
            + "      on: client\n      ionice: none\n      processes: 2\n"
            + "      command: cp a b${proc}\n      bytes: 2K\n";
    WorkloadPlan plan = plan(yaml, Map.of("cls", "rt/0", "engine", "libaio", "rep", "1"));
    assertEquals(Duration.ofSeconds(3), plan.duration());
    assertEquals(Duration.ofMinutes(2), plan.timeout());
    JobPlan reader = plan.jobs().get(0);
    assertEquals("server", reader.role());
    assertEquals("rt/0", reader.ionice());
    assertEquals(-5, reader.nice());
    assertEquals("0-1", reader.cpus());
    assertEquals(Parser.FIO, reader.parser());
    assertEquals(
        List.of(
            "fio",
            "--output-format=json",
            "--name=reader",
            "--rw=read",
            "--ioengine=libaio",
            "--time_based",
            "--filename=/f0"),
        reader.processes().get(0).argv());
    assertEquals("reader.0", reader.processes().get(0).name());
    JobPlan copier = plan.jobs().get(1);
    assertNull(copier.ionice());
    assertEquals(JobKind.COMMAND, copier.kind());
    assertEquals(Parser.NONE, copier.parser());
    assertEquals(2048L, copier.declaredBytes());
    assertEquals(List.of("sh", "-c", "cp a b1"), copier.processes().get(1).argv());
    assertEquals("copier.1", copier.processes().get(1).name());
  }

  @Test
  void aJobFileIsShippedOnStandardInputSubstitutedPerProcess() {
    WorkloadPlan plan =
        plan(
            "name: f\nmatrix:\n  depth: [8]\nworkload:\n  fio: {jobfile: seq.fio}\n  processes: 2\n",
            Map.of("depth", "8", "rep", "1"));
    ProcessPlan second = plan.jobs().get(0).processes().get(1);
    assertEquals("fio.1", second.name());
    assertEquals(List.of("fio", "--output-format=json", "-"), second.argv());
    assertEquals("[seq]\nrw=read\nfilename=/var/tmp/f1\niodepth=8\n", second.stdinText());
  }

  @Test
  void capturedCountsAndListsDecideTheProcesses() {
    String yaml =
        "name: c\n"
            + "setup:\n  - {run: \"ls /dev/sd?\", capture: \"devs[]\"}\n  - {run: nproc, capture: n}\n"
            + "workload:\n"
            + "  jobs:\n"
            + "    read:\n      processes: ${#devs}\n"
            + "      dd: {input: \"/dev/${devs[proc]}\", output: /dev/null, bs: 4K, count: 1}\n"
            + "    spin:\n      processes: ${n}\n      command: spin ${proc}\n";
    Map<String, String> vars =
        Map.of("devs", Substitution.listValue(List.of("sdb", "sdc")), "n", "3", "rep", "1");
    WorkloadPlan plan = plan(yaml, vars);
    assertEquals(
        List.of("if=/dev/sdb", "if=/dev/sdc"),
        plan.jobs().get(0).processes().stream().map(p -> p.argv().get(1)).toList());
    assertEquals(3, plan.jobs().get(1).processes().size());

    MatrixException e =
        assertThrows(
            MatrixException.class,
            () -> plan(yaml, Map.of("devs", "sdb", "n", "lots", "rep", "1")));
    assertEquals(
        "m.yaml:11:7: workload.jobs.spin.processes: 'lots' is not a whole number from 1 to 10000"
            + " (from ${n})",
        e.getMessage());
  }

  @Test
  void checkingBeforeTheRunLeavesCapturedFieldsToTheRun() {
    Matrix m =
        load(
            "name: c\n"
                + "setup:\n  - {run: \"ls /dev/sd?\", capture: \"devs[]\"}\n"
                + "cell_setup:\n  - {run: pick-class, capture: cls}\n"
                + "workload:\n"
                + "  processes: 4\n  ionice: ${cls}\n"
                + "  dd: {input: \"/dev/${devs[proc]}\", output: /dev/null, bs: 4K, count: 1}\n");
    ExperimentPlan.of(m);
  }
}
