package io.tunelab.agents;

import static io.tunelab.agents.AgentHarness.tab;
import static io.tunelab.agents.TrialTest.job;
import static io.tunelab.agents.TrialTest.lines;
import static io.tunelab.agents.TrialTest.out;
import static io.tunelab.agents.TrialTest.sh;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tunelab.agents.AgentHarness.Result;
import io.tunelab.agents.AgentHarness.Server;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Once a trial of a serve has ended, before its after-snapshot, the agent forks the next trial's
 * leader, which starts the first job's two output keepers and waits: the next trial runs in that
 * leader's group, and whatever ends the serve, or a request that cannot use the leader, ends it
 * with its keepers.
 */
class LeaderAheadTest {

  /** A job that prints its own process group. */
  private static final List<String> GROUP_JOB =
      job("g", List.of("awk", "{ print $5 }", "/proc/self/stat"));

  private static String[] groupJob() {
    return lines(List.of(GROUP_JOB));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void theNextTrialRunsInTheGroupOfTheLeaderForkedAhead(String shell, @TempDir Path dir)
      throws Exception {
    AgentHarness agent = new AgentHarness(shell, dir);
    try (Server server = agent.serve()) {
      Result first = server.request("run", groupJob());
      assertEquals(0, first.rc(), first.stderr());

      long leader = awaitLeaderWithKeepers(agent);
      Result second = server.request("run", groupJob());

      assertEquals(0, second.rc(), second.stderr());
      assertEquals(List.of(Long.toString(leader)), out(second, "g"));
      assertNotEquals(out(first, "g"), out(second, "g"), "a trial's group served twice");
      assertEquals(0, server.closeAndWait(), server.stderr());
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void theNextLeaderIsForkedBeforeTheTrialsAfterSnapshot(String shell, @TempDir Path dir)
      throws Exception {
    // Each awk that takes a snapshot logs the leader that jobs/leader names at that moment.
    Path leaderFile = new AgentHarness(shell, dir).state().resolve("jobs").resolve("leader");
    AgentHarness agent =
        SnapshotReaderTest.loggingAwk(shell, dir, "\"$(cat '" + leaderFile + "')\"");
    String[] trial = lines(List.of(List.of("health"), GROUP_JOB));
    try (Server server = agent.serve()) {
      assertEquals(0, server.request("run", groupJob()).rc(), server.stderr());
      // Without the snapshot reader, each snapshot forks an awk of its own.
      long reader = SnapshotReaderTest.reader(dir);
      Procs.kill("KILL", Long.toString(reader));
      assertEquals(List.of(), Procs.awaitGone(List.of(reader), 10_000));

      Result measured = server.request("run", trial);
      Result next = server.request("run", groupJob());

      assertEquals(0, measured.rc(), measured.stderr());
      assertEquals(0, next.rc(), next.stderr());
      List<String> snapshots = SnapshotReaderTest.awkStarts(dir);
      assertEquals(3, snapshots.size(), "the reader, then before and after: " + snapshots);
      assertEquals(out(measured, "g").get(0), leaderIn(snapshots.get(1)), snapshots.toString());
      assertEquals(out(next, "g").get(0), leaderIn(snapshots.get(2)), snapshots.toString());
    }
  }

  /** The leader's pid in a line of awk.log: "AWK_PID LEADER_PID LEADER_START". */
  private static String leaderIn(String line) {
    String[] words = line.split(" ");
    return words.length > 1 ? words[1] : "";
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void theLeaderForkedAheadAndItsKeepersEndWithTheServe(String shell, @TempDir Path dir)
      throws Exception {
    AgentHarness agent = new AgentHarness(shell, dir);
    try (Server server = agent.serve()) {
      List<Long> group = groupAheadOfATrial(agent, server);

      assertEquals(0, server.closeAndWait(), server.stderr());

      assertEquals(
          List.of(), Procs.awaitGone(group, 10_000), "left behind by a serve whose input ended");
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void theLeaderForkedAheadAndItsKeepersEndWhenTheServeIsKilled(String shell, @TempDir Path dir)
      throws Exception {
    AgentHarness agent = new AgentHarness(shell, dir);
    try (Server server = agent.serve()) {
      List<Long> group = groupAheadOfATrial(agent, server);

      Procs.kill("KILL", Long.toString(server.pid()));

      assertEquals(List.of(), Procs.awaitGone(group, 10_000), "left behind by a killed serve");
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aRequestThatCannotUseTheLeaderEndsIt(String shell, @TempDir Path dir) throws Exception {
    AgentHarness agent = new AgentHarness(shell, dir);
    try (Server server = agent.serve()) {
      List<Long> group = groupAheadOfATrial(agent, server);

      Result bad = server.request("run", tab("job", "x"));
      assertEquals(2, bad.rc(), "a job without an arg line");
      assertEquals(List.of(), Procs.awaitGone(group, 10_000), "a leader whose directory went");

      // A trial of two jobs and a monitor: the keepers started ahead are the leader's, not a job's.
      assertEquals(0, server.request("run", groupJob()).rc(), server.stderr());
      List<Long> ahead = Procs.group(awaitLeaderWithKeepers(agent));
      Result two =
          server.request(
              "run",
              lines(
                  List.of(
                      job("a", sh("echo a")),
                      job("b", sh("echo b >&2")),
                      List.of(tab("monitor", "m"), tab("arg", "sleep"), tab("arg", "5")))));
      assertEquals(0, two.rc(), two.stderr());
      assertEquals(List.of("a"), out(two, "a"));
      assertTrue(two.rest("err").contains("b\tb"), two.lines().toString());
      assertEquals(
          List.of(), Procs.awaitGone(ahead, 10_000), "the keepers started ahead of that trial");
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aLeaderKilledWhileItWaitsIsForkedAnew(String shell, @TempDir Path dir) throws Exception {
    AgentHarness agent = new AgentHarness(shell, dir);
    try (Server server = agent.serve()) {
      List<Long> group = groupAheadOfATrial(agent, server);
      long killed = Long.parseLong(Procs.stat(group.get(0))[2]);
      Procs.kill("KILL", "-" + killed);
      assertEquals(List.of(), Procs.awaitGone(group, 10_000));

      Result next = server.request("run", groupJob());

      assertEquals(0, next.rc(), next.stderr());
      assertEquals(1, out(next, "g").size(), next.lines().toString());
      assertNotEquals(List.of(Long.toString(killed)), out(next, "g"));
    }
  }

  /** Runs a trial, then returns the group of the leader forked for the next: it and two keepers. */
  private static List<Long> groupAheadOfATrial(AgentHarness agent, Server server) throws Exception {
    assertEquals(0, server.request("run", groupJob()).rc(), server.stderr());
    return Procs.group(awaitLeaderWithKeepers(agent));
  }

  /** Polls until jobs/leader names a live leader whose group holds it and two keepers. */
  private static long awaitLeaderWithKeepers(AgentHarness agent) throws Exception {
    Path file = agent.state().resolve("jobs").resolve("leader");
    long deadline = System.nanoTime() + Tools.millis(10_000) * 1_000_000;
    String seen = "";
    while (System.nanoTime() < deadline) {
      String text = Files.exists(file) ? Files.readString(file).trim() : "";
      if (!text.isEmpty()) {
        long leader = Long.parseLong(text.split(" ")[0]);
        List<Long> group = Procs.group(leader);
        // The keepers wait in their open(2) of the FIFOs, before they exec cut.
        long keepers = group.stream().filter(p -> parent(p) == leader).count();
        seen = text + " group " + group;
        if (Procs.alive(leader) && group.size() == 3 && keepers == 2) {
          return leader;
        }
      }
      Thread.sleep(20);
    }
    return fail("no leader with its two keepers ahead: " + seen);
  }

  private static long parent(long pid) {
    try {
      return Long.parseLong(Procs.stat(pid)[1]);
    } catch (IOException e) {
      return -1;
    }
  }
}
