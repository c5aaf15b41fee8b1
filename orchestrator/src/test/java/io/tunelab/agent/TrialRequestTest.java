package io.tunelab.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tunelab.testing.LocalAgent;
import io.tunelab.workload.Stopped;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A trial request's time limits: the trial's, each process's own, and the stop grace; and the real
 * agent keeping them.
 */
class TrialRequestTest {
  @TempDir Path dir;

  private static TrialProcess process(String name, Duration duration, Duration timeout) {
    return new TrialProcess(
        name, List.of("sh", "-c", "true"), null, null, null, null, false, duration, timeout);
  }

  @Test
  void aProcesssOwnLimitsAndTheGraceGoOnTheirOwnLines() {
    TrialRequest request =
        new TrialRequest(
            List.of(
                process("w.0", null, null),
                process("r.0", Duration.ofMillis(1500), Duration.ofMinutes(2))),
            List.of(),
            Duration.ofSeconds(60),
            Duration.ofMinutes(10),
            Duration.ofSeconds(90));

    assertEquals(
        List.of(
            "timeout\t600",
            "duration\t60",
            "stop_grace\t90",
            "job\tw.0",
            "arg\tsh",
            "arg\t-c",
            "arg\ttrue",
            "job\tr.0",
            "arg\tsh",
            "arg\t-c",
            "arg\ttrue",
            "job_duration\t1.5",
            "job_timeout\t120"),
        request.payload());
  }

  @Test
  void theHostMayTakeTheLatestOfEveryProcesssLimits() {
    Duration tenMinutes = Duration.ofMinutes(10);
    // the trial's duration plus the grace
    assertEquals(
        Duration.ofSeconds(700),
        new TrialRequest(
                List.of(process("w.0", null, null)),
                List.of(),
                Duration.ofSeconds(600),
                tenMinutes,
                Duration.ofSeconds(100))
            .limit());
    // a process's own timeout
    assertEquals(
        Duration.ofMinutes(30),
        new TrialRequest(
                List.of(process("w.0", null, null), process("r.0", null, Duration.ofMinutes(30))),
                List.of(),
                null,
                tenMinutes)
            .limit());
    // a process's own duration plus the agent's own grace
    assertEquals(
        Duration.ofMinutes(20).plus(AgentSession.STOP_GRACE),
        new TrialRequest(
                List.of(process("w.0", Duration.ofMinutes(20), null)),
                List.of(),
                Duration.ofSeconds(5),
                tenMinutes)
            .limit());
  }

  @Test
  void theAgentStopsEachProcessAtItsOwnDurationAndKillsAfterTheRequestsGrace() {
    Path stopped = dir.resolve("STOPPED");
    Duration soon = Duration.ofMillis(300);
    try (AgentSession agent = new LocalAgent(dir).start()) {
      TrialReport report =
          agent.runTrial(
              new TrialRequest(
                  List.of(
                      // a close() that flushes: 1 s after SIGINT, beyond the 0.3 s grace
                      command(
                          "flush.0",
                          "trap 'sleep 1; echo flushed; exit 0' INT; sleep 30 & wait",
                          soon),
                      command(
                          "quick.0",
                          "trap 'touch " + stopped + "; exit 0' INT; sleep 30 & wait",
                          soon),
                      command(
                          "on.0",
                          "i=0; while [ ! -e "
                              + stopped
                              + " ] && [ $i -lt 300 ]; do sleep 0.05; i=$((i+1)); done; echo on",
                          null)),
                  List.of(),
                  null,
                  Duration.ofMinutes(1),
                  soon),
              () -> false);

      assertEquals(Stopped.KILLED, byName(report, "flush.0").stopped());
      assertEquals(List.of(), byName(report, "flush.0").result().stdout());
      assertEquals(Stopped.INTERRUPTED, byName(report, "quick.0").stopped());
      assertEquals(Stopped.NO, byName(report, "on.0").stopped(), "it has no duration");
      assertEquals(List.of("on"), byName(report, "on.0").result().stdout());
    }
  }

  private static TrialProcess command(String name, String command, Duration duration) {
    return new TrialProcess(
        name, List.of("sh", "-c", command), null, null, null, null, false, duration, null);
  }

  private static ProcessReport byName(TrialReport report, String name) {
    return report.processes().stream()
        .filter(p -> p.result().name().equals(name))
        .findFirst()
        .orElseThrow();
  }
}
