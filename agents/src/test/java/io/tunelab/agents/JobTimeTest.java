package io.tunelab.agents;

import static io.tunelab.agents.AgentHarness.tab;
import static io.tunelab.agents.TrialTest.job;
import static io.tunelab.agents.TrialTest.lines;
import static io.tunelab.agents.TrialTest.out;
import static io.tunelab.agents.TrialTest.rc;
import static io.tunelab.agents.TrialTest.row;
import static io.tunelab.agents.TrialTest.sh;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.agents.AgentHarness.Result;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A job's own time limits ({@code job_duration}, {@code job_timeout}) beside the trial's, and the
 * stop grace a request gives ({@code stop_grace}) over the host's {@code TUNELAB_STOP_GRACE}.
 */
class JobTimeTest {
  /** Waits, at most 15 s, for a file the other job creates, then says so. */
  private static String awaitFile(String name, String then) {
    return "i=0; while [ ! -e "
        + name
        + " ] && [ $i -lt 300 ]; do sleep 0.05; i=$((i+1)); done; "
        + then;
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aJobsOwnDurationStopsItWhileTheOtherJobRunsOn(String shell, @TempDir Path dir)
      throws Exception {
    String marker = Procs.marker("TUNELAB_TEST_JOB");
    AgentHarness agent = new AgentHarness(shell, dir);

    Result run =
        agent.call(
            "run",
            lines(
                List.of(
                    job(
                        "short.0",
                        sh("trap 'touch SHORT_STOPPED; exit 0' INT; sleep 30 & wait"),
                        tab("job_duration", "1"),
                        tab("env", marker)),
                    // the trial's duration is the other job's: it is not stopped at 1 s
                    job(
                        "long.0",
                        sh(awaitFile("SHORT_STOPPED", "sleep 0.3; echo finished")),
                        tab("env", marker)),
                    List.of(tab("duration", "30"), tab("timeout", "60")))));

    assertEquals(0, run.rc(), run.lines().toString());
    assertEquals("INT", row(run, "stopped", "short.0"));
    assertEquals(0, rc(run, "short.0"));
    assertEquals(null, row(run, "stopped", "long.0"), "the other job ran on");
    assertEquals(List.of("finished"), out(run, "long.0"));
    assertTrue(end(run, "short.0") < end(run, "long.0"), run.lines().toString());
    assertEquals(List.of(), Procs.awaitNone(marker, 3000));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aLoneJobsOwnDurationStopsIt(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);

    Result run =
        agent.call(
            "run",
            lines(
                List.of(
                    job(
                        "dd.0",
                        List.of("dd", "if=/dev/zero", "of=/dev/null", "bs=64k"),
                        tab("job_duration", "0.5")))));

    assertEquals(0, run.rc(), run.lines().toString());
    assertEquals("INT", row(run, "stopped", "dd.0"));
    assertEquals(130, rc(run, "dd.0"));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aJobsOwnTimeoutEndsThatJobOnly(String shell, @TempDir Path dir) throws Exception {
    String marker = Procs.marker("TUNELAB_TEST_JOB");
    AgentHarness agent = new AgentHarness(shell, dir);

    Result run =
        agent.call(
            "run",
            lines(
                List.of(
                    job(
                        "stuck.0",
                        sh("trap 'touch STUCK_ENDED; exit 1' TERM; sleep 30 & wait"),
                        tab("job_timeout", "0.5"),
                        tab("env", marker)),
                    job(
                        "patient.0",
                        sh(awaitFile("STUCK_ENDED", "sleep 0.3; echo done")),
                        tab("env", marker)),
                    List.of(tab("timeout", "60")))));

    assertEquals(1, run.rc(), "a timed-out job fails the trial: " + run.lines());
    assertEquals(124, rc(run, "stuck.0"));
    assertEquals(0, rc(run, "patient.0"), "the trial's own timeout is 60 s");
    assertEquals(List.of("done"), out(run, "patient.0"));
    assertEquals(null, row(run, "stopped", "stuck.0"), "a timeout is no stop");
    assertEquals(List.of(), Procs.awaitNone(marker, 3000));
  }

  /**
   * A job that needs 2 s after its SIGINT (a close() that flushes) keeps them under a 5 s grace and
   * is killed under a 1 s one; the host's own grace is the other one each time.
   */
  @ParameterizedTest(name = "{0} stop_grace {1}")
  @CsvSource({"dash, 5, 1", "dash, 1, 30", "bash, 5, 1", "bash, 1, 30"})
  void theRequestsStopGraceWinsOverTheHosts(
      String shell, String grace, String hostGrace, @TempDir Path dir) throws Exception {
    String marker = Procs.marker("TUNELAB_TEST_JOB");
    AgentHarness agent = new AgentHarness(shell, dir).env("TUNELAB_STOP_GRACE", hostGrace);

    Result run =
        agent.call(
            "run",
            lines(
                List.of(
                    job(
                        "flush.0",
                        sh("trap 'sleep 2; echo flushed; exit 0' INT; sleep 30 & wait"),
                        tab("env", marker)),
                    job("other.0", List.of("true")),
                    List.of(
                        tab("duration", "0.5"), tab("stop_grace", grace), tab("timeout", "60")))));

    if (grace.equals("5")) {
      assertEquals(0, run.rc(), run.lines().toString());
      assertEquals("INT", row(run, "stopped", "flush.0"));
      assertEquals(0, rc(run, "flush.0"));
      assertEquals(List.of("flushed"), out(run, "flush.0"));
    } else {
      assertEquals(1, run.rc(), "killed after the grace: " + run.lines());
      assertEquals("KILL", row(run, "stopped", "flush.0"));
      assertEquals(137, rc(run, "flush.0"));
      assertEquals(List.of(), out(run, "flush.0"));
    }
    assertEquals(List.of(), Procs.awaitNone(marker, 3000));
  }

  private static long end(Result r, String name) {
    return Long.parseLong(row(r, "job", name).split("\t")[2]);
  }
}
