package io.tunelab.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.matrix.MatrixException;
import io.tunelab.matrix.MatrixLoader;
import io.tunelab.matrix.Workload;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A job's own duration and timeout beside the workload's, and the workload's stop_grace. */
class JobTimeLimitsTest {
  private static final String JOBS =
      "name: j\n"
          + "matrix:\n  reader_for: [10s, 2m]\n"
          + "workload:\n"
          + "  duration: 1m\n  timeout: 10m\n  stop_grace: 90s\n"
          + "  jobs:\n"
          + "    writer:\n"
          + "      dd: {input: /dev/zero, output: /var/tmp/w, bs: 1M, count: 8}\n"
          + "    reader:\n"
          + "      duration: ${reader_for}\n"
          + "      command: ./reader\n"
          + "    checker:\n"
          + "      timeout: 5m\n"
          + "      command: ./check\n";

  private static Workload workload(String yaml) {
    return MatrixLoader.load("m.yaml", yaml, path -> "").workload();
  }

  private static String refusal(String yaml) {
    return assertThrows(MatrixException.class, () -> workload(yaml)).getMessage();
  }

  @Test
  void eachJobRunsWithItsOwnLimitsOrTheWorkloads() {
    WorkloadPlan plan =
        WorkloadPlanner.plan(workload(JOBS), Map.of("reader_for", "2m", "rep", "1"));

    assertEquals(Duration.ofMinutes(1), plan.duration());
    assertEquals(Duration.ofMinutes(10), plan.timeout());
    assertEquals(Duration.ofSeconds(90), plan.stopGrace());
    JobPlan writer = plan.jobs().get(0);
    JobPlan reader = plan.jobs().get(1);
    JobPlan checker = plan.jobs().get(2);
    assertNull(writer.duration());
    assertNull(writer.timeout());
    assertEquals(Duration.ofMinutes(2), reader.duration());
    assertNull(reader.timeout());
    assertEquals(Duration.ofMinutes(5), checker.timeout());
    assertNull(checker.duration());
  }

  @Test
  void withoutStopGraceTheHostAgentsOwnApplies() {
    WorkloadPlan plan =
        WorkloadPlanner.plan(
            workload("name: s\nworkload:\n  duration: 5s\n  command: ./w\n"), Map.of("rep", "1"));

    assertNull(plan.stopGrace());
    assertNull(plan.jobs().get(0).duration(), "a short form's duration is the workload's");
    assertEquals(Duration.ofSeconds(5), plan.duration());
  }

  @Test
  void aJobsTimeoutMustOutlastItsDurationAndTheGrace() {
    String base = "name: j\nworkload:\n  duration: 300s\n  jobs:\n";
    String inside =
        refusal(
            base + "    w:\n      timeout: 305s\n      command: ./w\n    r:\n      command: ./r\n");
    assertTrue(
        inside.startsWith(
            "m.yaml:6:16: workload.jobs.w.timeout: timeout 305s ends inside the 10 s stop grace"
                + " after duration 300s (workload.duration)"),
        inside);
    assertTrue(inside.endsWith("make it longer than 310s"), inside);

    String shorter = refusal(base + "    w:\n      timeout: 4m\n      command: ./w\n");
    assertTrue(
        shorter.contains(
            "workload.jobs.w.timeout: timeout 4m is not longer than duration 300s"
                + " (workload.duration): job w would fail every trial before it is stopped"),
        shorter);

    // the job's own duration against the workload's timeout, reported at the duration
    String own =
        refusal(
            "name: j\nworkload:\n  timeout: 1m\n  stop_grace: 30s\n  jobs:\n"
                + "    w:\n      duration: 45s\n      command: ./w\n");
    assertTrue(
        own.startsWith(
            "m.yaml:7:17: workload.jobs.w.duration: timeout 1m (workload.timeout) ends inside the"
                + " 30 s stop grace (workload.stop_grace) after duration 45s"),
        own);
    assertTrue(own.endsWith("make the timeout longer than 75s"), own);
  }

  @Test
  void theWorkloadsPairIsCheckedOnlyWhenAJobRunsWithIt() {
    // every job has its own timeout: the workload's 305s is nobody's
    Workload w =
        workload(
            "name: j\nworkload:\n  duration: 300s\n  timeout: 305s\n  jobs:\n"
                + "    w:\n      timeout: 10m\n      command: ./w\n");
    assertEquals("305s", w.timeout());

    String used =
        refusal(
            "name: j\nworkload:\n  duration: 300s\n  timeout: 305s\n  jobs:\n"
                + "    w:\n      timeout: 10m\n      command: ./w\n"
                + "    r:\n      command: ./r\n");
    assertTrue(used.startsWith("m.yaml:4:12: workload.timeout: timeout 305s ends inside"), used);
  }

  @Test
  void aLongerStopGraceMovesTheBound() {
    String yaml = "name: s\nworkload:\n  duration: 300s\n  timeout: 320s\n  command: ./w\n";
    assertEquals("320s", workload(yaml).timeout());

    String refused = refusal(yaml.replace("  command", "  stop_grace: 30s\n  command"));
    assertTrue(
        refused.contains(
            "timeout 320s ends inside the 30 s stop grace (workload.stop_grace) after duration"
                + " 300s"),
        refused);
    assertTrue(refused.endsWith("make it longer than 330s"), refused);
  }

  @Test
  void aStopGraceInAJobIsTheWorkloads() {
    String refused =
        refusal("name: j\nworkload:\n  jobs:\n    w:\n      stop_grace: 5s\n      command: ./w\n");
    assertEquals(
        "m.yaml:5:7: workload.jobs.w.stop_grace: the stop grace is the workload's, for all its"
            + " jobs: write it beside jobs (workload.stop_grace)",
        refused);
  }
}
