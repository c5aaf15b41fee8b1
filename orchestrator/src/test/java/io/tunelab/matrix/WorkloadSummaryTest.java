package io.tunelab.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WorkloadSummaryTest {

  @Test
  void aWorkloadAsWrittenOnOneLine() {
    assertEquals(
        "dd: {input: \"/dev/${dev}\", output: /dev/null, bs: 1M, total: 256MiB}",
        WorkloadSummary.of(
            """
            name: quickstart
            workload:
              dd:
                input: /dev/${dev}
                output: /dev/null
                bs: 1M
                total: 256MiB
            """));
  }

  @Test
  void jobsListsAndTextThatNeedsQuotes() {
    assertEquals(
        "jobs: {reader: {fio: {rw: read, bs: 4k}, ionice: be/7}, writer: {command: \"cp a b,"
            + " c\", processes: 2}}, duration: 30s",
        WorkloadSummary.of(
            """
            workload:
              jobs:
                reader: {fio: {rw: read, bs: 4k}, ionice: be/7}
                writer: {command: "cp a b, c", processes: 2}
              duration: 30s
            """));
    assertEquals(
        "command: \"echo seconds: 1\", parser: metrics, on: [client]",
        WorkloadSummary.of(
            "workload: {command: 'echo seconds: 1', parser: metrics, on: [client]}"));
  }

  @Test
  void aJobsOwnLimitsAndTheStopGraceAreInIt() {
    assertEquals(
        "duration: 15m, stop_grace: 2m, jobs: {writer: {command: ./w}, reader: {duration: 30s,"
            + " command: ./r}}",
        WorkloadSummary.of(
            """
            workload:
              duration: 15m
              stop_grace: 2m
              jobs:
                writer: {command: ./w}
                reader: {duration: 30s, command: ./r}
            """));
  }

  @Test
  void aLongWorkloadIsCutAndNoWorkloadGivesNothing() {
    String summary = WorkloadSummary.of("workload: {command: " + "x".repeat(500) + "}");
    assertEquals(WorkloadSummary.MAX, summary.length());
    assertTrue(summary.endsWith("…"), summary);
    assertNull(WorkloadSummary.of("name: x\n"));
    assertNull(WorkloadSummary.of(null));
    assertNull(WorkloadSummary.of("workload: [unclosed"));
  }
}
