package io.tunelab.agents;

import static io.tunelab.agents.AgentHarness.read;
import static io.tunelab.agents.AgentHarness.tab;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.agents.AgentHarness.Result;
import io.tunelab.agents.AgentHarness.Server;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * When a serve's input ends without a final restore (its controller was killed), the agent waits
 * the grace period, stops its jobs and restores the journal itself; a new serve arriving meanwhile
 * takes over at once. Workloads carry an environment marker, so the tests see every process they
 * left.
 */
class DeadManTest {

  private static String[] sleepJob(String marker) {
    return new String[] {
      tab("job", "sleeper"), tab("arg", "sleep"), tab("arg", "30"), tab("env", marker)
    };
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void anIdleAgentRestoresAfterTheGracePeriod(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path knob = agent.knob("read_ahead_kb", "128");
    Server server = agent.serve();
    assertEquals(0, server.request("apply", tab("set", knob, "4096")).rc());

    server.closeStdin();

    assertTrue(server.waitFor(10), "the agent exits after the grace period");
    assertEquals(0, server.exitValue());
    assertEquals("128\n", read(knob));
    assertFalse(Files.exists(agent.journal()));
    assertFalse(Files.exists(agent.state().resolve("lock")), "lock released");
    assertTrue(server.stderr().contains("dead-man restore: restored"), server.stderr());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void anAgentWhoseAnswerMetAGoneControllerStillRestores(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path knob = agent.knob("read_ahead_kb", "128");
    Server server = agent.serve();
    assertEquals(0, server.request("apply", tab("set", knob, "4096")).rc());

    // Its answers' end first: the next answer is written into a pipe nobody reads.
    server.closeStdout();
    server.send("hello");
    server.closeStdin();

    assertTrue(server.waitFor(Tools.millis(10_000) / 1000.0), "the agent exits after the grace");
    assertEquals(0, server.exitValue(), server.stderr());
    assertEquals("128\n", read(knob));
    assertTrue(server.stderr().contains("dead-man restore: restored"), server.stderr());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void theSwitchStopsARunningWorkload(String shell, @TempDir Path dir) throws Exception {
    String marker = Procs.marker("TUNELAB_TEST_JOB");
    String agentMarker = Procs.marker("TUNELAB_TEST_AGENT");
    AgentHarness agent = new AgentHarness(shell, dir).env("TUNELAB_TEST_AGENT", value(agentMarker));
    Path knob = agent.knob("read_ahead_kb", "128");
    Server server = agent.serve();
    assertEquals(0, server.request("apply", tab("set", knob, "4096")).rc());
    server.send("run", sleepJob(marker));
    assertFalse(Procs.awaitSome(marker, 5000).isEmpty(), "the job started");

    long closed = System.nanoTime();
    server.closeStdin();

    assertTrue(server.waitFor(10), "the agent exits; stderr: " + server.stderr());
    long tookMs = (System.nanoTime() - closed) / 1_000_000;
    assertTrue(tookMs < Tools.millis(6000), "took " + tookMs + " ms");
    assertEquals(List.of(), Procs.withEnv(marker));
    assertEquals(List.of(), Procs.awaitNone(agentMarker, 1000), "the agent's own helpers");
    assertEquals("128\n", read(knob));
    assertFalse(Files.exists(agent.journal()));
    assertFalse(Files.exists(agent.state().resolve("lock")), "lock released");
    assertFalse(Files.exists(agent.state().resolve("jobs")), "jobs dir left");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aNewServeDuringTheGracePeriodTakesOverAtOnce(String shell, @TempDir Path dir)
      throws Exception {
    String marker = Procs.marker("TUNELAB_TEST_JOB");
    AgentHarness agent = new AgentHarness(shell, dir).env("TUNELAB_GRACE", "30");
    Path knob = agent.knob("read_ahead_kb", "128");
    Server old = agent.serve();
    assertEquals(0, old.request("apply", tab("set", knob, "4096")).rc());
    old.send("run", sleepJob(marker));
    assertFalse(Procs.awaitSome(marker, 5000).isEmpty(), "the job started");
    old.closeStdin();

    agent.env("TUNELAB_LOCK_WAIT", "30");
    long start = System.nanoTime();
    try (Server next = agent.serve()) {
      Result hello = next.request("hello");
      long tookMs = (System.nanoTime() - start) / 1_000_000;

      assertTrue(tookMs < Tools.millis(5000), "took over in " + tookMs + " ms");
      assertTrue(
          hello.rest("ended").stream().anyMatch(e -> e.startsWith(old.pid() + "\t")),
          hello.lines().toString());
      assertTrue(old.waitFor(5), "the old agent exits");
      assertEquals(List.of(), Procs.awaitNone(marker, 3000));
      // The old agent did not restore: the new controller does.
      assertEquals("4096\n", read(knob));
      assertEquals(List.of(tab(knob, "128")), next.request("journal").lines());
      assertEquals(List.of(tab("restored", knob, "128")), next.request("restore").lines());
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aOneShotRestoreRightAfterTheControllerDiedTakesOver(String shell, @TempDir Path dir)
      throws Exception {
    AgentHarness agent = new AgentHarness(shell, dir).env("TUNELAB_GRACE", "30");
    Path knob = agent.knob("read_ahead_kb", "128");
    Server old = agent.serve();
    assertEquals(0, old.request("apply", tab("set", knob, "4096")).rc());
    old.closeStdin();
    agent.env("TUNELAB_LOCK_WAIT", "30");

    Result restore = agent.call("restore");

    assertEquals(0, restore.rc(), restore.stderr());
    assertEquals(List.of(tab(knob, "128")), restore.rest("restored"));
    assertTrue(
        restore.rest("ended").stream().anyMatch(e -> e.startsWith(old.pid() + "\t")),
        restore.lines().toString());
    assertTrue(old.waitFor(5), "the old agent exits");
    assertEquals("128\n", read(knob));
    assertFalse(Files.exists(agent.journal()));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aKilledAgentsLeftoversAreEndedAndReportedByTheNextServe(String shell, @TempDir Path dir)
      throws Exception {
    String jobMarker = Procs.marker("TUNELAB_TEST_JOB");
    String oldMarker = Procs.marker("TUNELAB_TEST_AGENT");
    AgentHarness agent = new AgentHarness(shell, dir).env("TUNELAB_TEST_AGENT", value(oldMarker));
    Server old = agent.serve();
    old.send("run", sleepJob(jobMarker));
    List<String> job = Procs.awaitSome(jobMarker, 5000);
    assertFalse(job.isEmpty(), "the job started");

    Procs.kill("KILL", Long.toString(old.pid()));
    assertTrue(old.waitFor(5));
    agent.env("TUNELAB_TEST_AGENT", "next");
    try (Server next = agent.serve()) {
      Result hello = next.request("hello");

      List<String> ended = hello.rest("ended");
      for (String process : job) {
        String pid = process.substring(0, process.indexOf(' ') + 1).replace(' ', '\t');
        assertTrue(ended.stream().anyMatch(e -> e.startsWith(pid)), ended + " lacks " + process);
      }
      assertEquals(List.of(), Procs.awaitNone(jobMarker, 3000));
      assertEquals(List.of(), Procs.awaitNone(oldMarker, 3000), "the old agent's reader");
    } finally {
      old.close();
    }
  }

  private static String value(String entry) {
    return entry.substring(entry.indexOf('=') + 1);
  }
}
