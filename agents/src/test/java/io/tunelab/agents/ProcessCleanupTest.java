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
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * No process left behind: whatever way a run ends, nothing the agent started for it still runs.
 * Jobs carry a marker in their environment, the agent another one, and every descendant inherits
 * them; the tests count the processes that hold one.
 */
class ProcessCleanupTest {

  /** A job that leaves a sleeping child behind, whatever it exits with. */
  private static List<String> leaver(String name, String marker, String exit) {
    return List.of(
        tab("job", name),
        tab("arg", "sh"),
        tab("arg", "-c"),
        tab("arg", "sleep 30 & exit " + exit),
        tab("env", marker));
  }

  private static String[] lines(List<List<String>> parts) {
    List<String> all = new ArrayList<>();
    parts.forEach(all::addAll);
    return all.toArray(String[]::new);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aNormalOrFailedEndLeavesNothing(String shell, @TempDir Path dir) throws Exception {
    String job = Procs.marker("TUNELAB_TEST_JOB");
    String agentMarker = Procs.marker("TUNELAB_TEST_AGENT");
    AgentHarness agent =
        new AgentHarness(shell, dir)
            .env("TUNELAB_TEST_AGENT", agentMarker.substring(agentMarker.indexOf('=') + 1));

    Result run = agent.call("run", lines(List.of(leaver("ok", job, "0"), leaver("bad", job, "3"))));

    assertEquals(1, run.rc(), run.stderr());
    List<String> statuses =
        run.rest("job").stream()
            .map(j -> String.join(" ", List.of(j.split("\t")).subList(0, 2)))
            .toList();
    assertEquals(List.of("ok 0", "bad 3"), statuses);
    assertEquals(List.of(), Procs.awaitNone(job, 3000));
    assertEquals(List.of(), Procs.awaitNone(agentMarker, 3000));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aTimeoutLeavesNothingEvenWhenTheJobIgnoresTerm(String shell, @TempDir Path dir)
      throws Exception {
    String job = Procs.marker("TUNELAB_TEST_JOB");
    AgentHarness agent = new AgentHarness(shell, dir);
    List<String> payload = new ArrayList<>(leaver("leaver", job, "0"));
    payload.set(3, tab("arg", "sleep 30 & sleep 30"));
    // ignores TERM, and so does its child: killed 2 s after the deadline, its child at the end
    payload.addAll(
        List.of(
            tab("job", "stubborn"),
            tab("arg", "sh"),
            tab("arg", "-c"),
            tab("arg", "trap '' TERM INT; sleep 30"),
            tab("env", job),
            tab("timeout", "0.3")));

    Result run = agent.call("run", payload.toArray(String[]::new));

    assertEquals(1, run.rc());
    for (String line : run.rest("job")) {
      assertEquals("124", line.split("\t")[1], line);
    }
    assertEquals(List.of(), Procs.awaitNone(job, 3000));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void cancelLeavesNothing(String shell, @TempDir Path dir) throws Exception {
    String job = Procs.marker("TUNELAB_TEST_JOB");
    AgentHarness agent = new AgentHarness(shell, dir);
    try (Server server = agent.serve()) {
      List<String> payload = new ArrayList<>(leaver("leaver", job, "0"));
      payload.set(3, tab("arg", "sleep 30 & sleep 30"));
      server.send("run", payload.toArray(String[]::new));
      assertFalse(Procs.awaitSome(job, 5000).isEmpty(), "the job started");

      Result cancel = agent.call("cancel");
      Result run = server.await();

      assertEquals(0, cancel.rc(), cancel.stderr());
      assertEquals(1, run.rc());
      assertEquals(List.of(), Procs.awaitNone(job, 3000));
      assertEquals(0, server.request("hello").rc(), "the agent keeps serving");
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void cancelNeverSignalsAProcessThatStartedAfterTheJob(String shell, @TempDir Path dir)
      throws Exception {
    String job = Procs.marker("TUNELAB_TEST_JOB");
    AgentHarness agent = new AgentHarness(shell, dir);
    Process stranger = new ProcessBuilder("sleep", "30").start();
    try (Server server = agent.serve()) {
      List<String> payload = new ArrayList<>(leaver("leaver", job, "0"));
      payload.set(3, tab("arg", "sleep 30"));
      server.send("run", payload.toArray(String[]::new));
      assertFalse(Procs.awaitSome(job, 5000).isEmpty(), "the job started");
      // as if the job's numbers had been reused: the stranger's pid, without a start time
      // and with one it does not have
      long pid = stranger.pid();
      long start = Long.parseLong(Procs.stat(pid)[19]);
      Path pids = agent.state().resolve("jobs/pids");
      Files.writeString(
          pids, pid + "\n" + pid + " " + (start + 1) + "\n", StandardOpenOption.APPEND);

      Result cancel = agent.call("cancel");
      Result run = server.await();

      assertEquals(0, cancel.rc(), cancel.stderr());
      assertEquals(1, cancel.lines().size(), cancel.lines().toString());
      assertEquals(1, run.rc());
      assertEquals(List.of(), Procs.awaitNone(job, 3000));
      assertTrue(stranger.isAlive(), "cancel signalled a process that is not the job's");
    } finally {
      stranger.destroyForcibly();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aJobGetsSigintThroughItsProcessGroup(String shell, @TempDir Path dir) throws Exception {
    String job = Procs.marker("TUNELAB_TEST_JOB");
    AgentHarness agent = new AgentHarness(shell, dir);
    try (Server server = agent.serve()) {
      server.send(
          "run",
          tab("job", "dd"),
          tab("arg", "sh"),
          tab("arg", "-c"),
          tab("arg", "trap 'echo got-int; exit 0' INT; sleep 30 & wait"),
          tab("env", job));
      // the workload's own child runs once its INT trap is set
      long deadline = System.nanoTime() + 5_000_000_000L;
      while (Procs.withEnv(job).stream().noneMatch(p -> p.endsWith(" sleep 30"))
          && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      String group = read(agent.state().resolve("jobs/pgid")).split(" ")[0];

      Procs.kill("INT", "-" + group);
      Result run = server.await();

      assertEquals(0, run.rc(), run.stderr());
      assertTrue(run.rest("out").contains(tab("dd", "got-int")), run.lines().toString());
      assertEquals(List.of(), Procs.awaitNone(job, 3000));
    }
  }
}
