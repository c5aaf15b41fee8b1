package io.tunelab.agents;

import static io.tunelab.agents.AgentHarness.tab;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.agents.AgentHarness.Result;
import io.tunelab.agents.AgentHarness.Server;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The trial of a serve in steps: {@code start} forks every process up to the barrier, {@code go}
 * releases them, {@code wait} reports the jobs, {@code stop} the monitors; with per-job scheduling,
 * stdin, whole output, a duration that stops jobs with SIGINT, and monitors that run from the
 * release until stop.
 */
class TrialTest {

  /** A job's payload lines: {@code job}, its argv, then any extra lines. */
  static List<String> job(String name, List<String> argv, String... extra) {
    List<String> lines = new ArrayList<>();
    lines.add(tab("job", name));
    argv.forEach(a -> lines.add(tab("arg", a)));
    lines.addAll(Arrays.asList(extra));
    return lines;
  }

  static List<String> sh(String command) {
    return List.of("sh", "-c", command);
  }

  static String[] lines(List<List<String>> parts) {
    return parts.stream().flatMap(List::stream).toArray(String[]::new);
  }

  /** The fields after {@code KIND<TAB>NAME<TAB>} of the line for {@code name}. */
  static String row(Result r, String kind, String name) {
    return r.rest(kind).stream()
        .filter(l -> l.startsWith(name + "\t"))
        .map(l -> l.substring(name.length() + 1))
        .findFirst()
        .orElse(null);
  }

  static List<String> out(Result r, String name) {
    return r.rest("out").stream()
        .filter(l -> l.startsWith(name + "\t"))
        .map(l -> l.substring(name.length() + 1))
        .toList();
  }

  static int rc(Result r, String name) {
    return Integer.parseInt(row(r, "job", name).split("\t")[0]);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void startAnswersAtOnceAndNothingRunsBeforeGo(String shell, @TempDir Path dir) throws Exception {
    AgentHarness agent = new AgentHarness(shell, dir);
    String marker = Procs.marker("TUNELAB_TEST_JOB");
    try (Server server = agent.serve()) {
      Result start =
          server.request(
              "start",
              lines(
                  List.of(
                      job("a.0", sh("touch A; sleep 0.5"), tab("env", marker)),
                      job("b.0", sh("touch B; sleep 0.5"), tab("env", marker)))));
      assertEquals(0, start.rc(), start.stderr());
      // start answers once every job waits at the barrier: that is the moment to look, and each
      // job's start time against go's tells the rest.
      assertFalse(Files.exists(agent.knobPath("A")), "a job ran before go");
      assertEquals(List.of(), Procs.withEnv(marker), "no workload process before go");

      long goSent = System.currentTimeMillis() * 1_000_000L;
      Result go = server.request("go");
      assertEquals(0, go.rc(), go.stderr());
      Result wait = server.request("wait");

      assertEquals(0, wait.rc(), wait.stderr());
      long startA = Long.parseLong(row(wait, "job", "a.0").split("\t")[1]);
      long startB = Long.parseLong(row(wait, "job", "b.0").split("\t")[1]);
      assertTrue(startA >= goSent - 50_000_000L, "a.0 started before go");
      assertTrue(Math.abs(startA - startB) < Tools.millis(200) * 1_000_000L, "start skew");
      assertTrue(Files.exists(agent.knobPath("A")) && Files.exists(agent.knobPath("B")));
      assertTrialFilesCleared(agent);
      assertEquals(0, server.request("hello").rc(), "the agent keeps serving");
    }
    assertFalse(Files.exists(agent.state().resolve("jobs")), "job files left behind");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void theNextTrialInheritsNothingFromTheLast(String shell, @TempDir Path dir) throws Exception {
    AgentHarness agent = new AgentHarness(shell, dir);
    try (Server server = agent.serve()) {
      Result first =
          server.request(
              "run",
              lines(
                  List.of(
                      job(
                          "a.0",
                          sh("cat; echo said >&2; exit 3"),
                          tab("stdin", "hello"),
                          "nice\t5"),
                      job("b.0", sh("echo b"), tab("stdout", "all")),
                      List.of(tab("monitor", "m.0"), tab("arg", "sleep"), tab("arg", "5")))));
      assertEquals(1, first.rc(), first.stderr());
      assertEquals(3, rc(first, "a.0"));
      assertEquals(List.of("hello"), out(first, "a.0"));

      Result second = server.request("run", lines(List.of(job("c.0", sh("cat; exit 0")))));

      assertEquals(0, second.rc(), second.stderr());
      assertEquals(0, rc(second, "c.0"));
      assertEquals(List.of(), out(second, "c.0"), "stdin of an earlier job");
      assertEquals(List.of(), second.rest("err"), "stderr of an earlier job");
      assertEquals(List.of(), second.rest("monitor"), "a monitor of an earlier trial");
      assertEquals(null, row(second, "job", "a.0"));
      assertTrue(row(second, "sched", "c.0").startsWith("0\t"), row(second, "sched", "c.0"));
      assertTrialFilesCleared(agent);
    }
  }

  /**
   * An ended trial leaves its directory for the agent's next trial (no mkdir, mkfifo or rm per
   * trial), but nothing a cancel or a later agent would act on: no pids, no process group.
   */
  private static void assertTrialFilesCleared(AgentHarness agent) throws Exception {
    Path jobs = agent.state().resolve("jobs");
    if (Files.exists(jobs)) {
      assertEquals(0, Files.size(jobs.resolve("pids")), "pids of an ended trial left");
      assertEquals(0, Files.size(jobs.resolve("pgid")), "group of an ended trial left");
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void eachJobsOwnProcessGetsItsNiceIoniceAndCpus(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);
    // the workload reads its own scheduling: sh -c runs as the job's process itself
    String self =
        "ionice -p $$; cut -d' ' -f19 /proc/$$/stat;"
            + " sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$$/status";

    Result run =
        agent.call(
            "run",
            lines(
                List.of(
                    job("idle.0", sh(self), tab("ionice", "idle"), tab("nice", "7")),
                    job("be.0", sh(self), tab("ionice", "be/3"), tab("cpus", "0")),
                    job("plain.0", sh(self)))));

    assertEquals(0, run.rc(), run.stderr());
    assertEquals(List.of("idle", "7", allCpus()), out(run, "idle.0"));
    assertEquals(List.of("best-effort: prio 3", "0", "0"), out(run, "be.0"));
    assertEquals(tab("7", allCpus(), "idle"), row(run, "sched", "idle.0"));
    assertEquals(tab("0", "0", "best-effort: prio 3"), row(run, "sched", "be.0"));
    assertTrue(
        row(run, "sched", "plain.0").startsWith(tab("0", allCpus(), "")), run.lines().toString());
  }

  private static String allCpus() {
    int n = Runtime.getRuntime().availableProcessors();
    return n == 1 ? "0" : "0-" + (n - 1);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aRefusedCpuListFailsItsJobBeforeTheBarrier(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);

    Result run =
        agent.call(
            "run",
            lines(
                List.of(
                    job("bad.0", sh("touch RAN"), tab("cpus", "4095")),
                    job("good.0", List.of("true")))));

    assertEquals(1, run.rc());
    assertEquals(125, rc(run, "bad.0"));
    assertEquals(0, rc(run, "good.0"));
    assertFalse(Files.exists(agent.knobPath("RAN")));
    assertTrue(row(run, "err", "bad.0").contains("taskset"), run.lines().toString());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void stdinLinesAndTheWholeStdoutWhenAsked(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);
    String count = "cat; i=0; while [ $i -lt 300 ]; do i=$((i+1)); echo $i; done";

    Result run =
        agent.call(
            "run",
            lines(
                List.of(
                    job(
                        "whole.0",
                        sh(count),
                        tab("stdin", "[job]"),
                        tab("stdin", ""),
                        tab("stdin", "rw=read  # a\ttab"),
                        tab("stdout", "all")),
                    job("tail.0", sh(count)))));

    assertEquals(0, run.rc(), run.stderr());
    List<String> whole = new ArrayList<>(List.of("[job]", "", "rw=read  # a\ttab"));
    IntStream.rangeClosed(1, 300).forEach(i -> whole.add(Integer.toString(i)));
    assertEquals(whole, out(run, "whole.0"));
    assertEquals(200, out(run, "tail.0").size());
    assertEquals("300", out(run, "tail.0").get(199));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aLongStdoutIsCutAndSaysSo(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);

    Result run =
        agent.call("run", lines(List.of(job("seq.0", List.of("seq", "100007"), "stdout\tall"))));

    assertEquals(0, run.rc(), run.stderr());
    List<String> out = out(run, "seq.0");
    assertEquals(100_000, out.size());
    assertEquals("100000", out.get(out.size() - 1));
    assertEquals(List.of(tab("seq.0", "7")), run.rest("cut"));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void theDurationStopsJobsWithSigintAndKillsThoseThatIgnoreIt(String shell, @TempDir Path dir)
      throws Exception {
    String marker = Procs.marker("TUNELAB_TEST_JOB");
    AgentHarness agent = new AgentHarness(shell, dir).env("TUNELAB_STOP_GRACE", "1");
    long t0 = System.nanoTime();

    Result run =
        agent.call(
            "run",
            lines(
                List.of(
                    job(
                        "dd.0",
                        List.of("dd", "if=/dev/zero", "of=/dev/null", "bs=64k"),
                        tab("env", marker)),
                    job(
                        "polite.0",
                        // INT reaches the whole job, as Ctrl-C would: the shell and its child
                        sh("trap 'echo got-int; exit 0' INT; sleep 30 & wait"),
                        tab("env", marker)),
                    job("deaf.0", sh("trap '' INT; sleep 30"), tab("env", marker)),
                    job("quick.0", List.of("true")),
                    List.of(tab("duration", "0.5")))));
    long tookMs = (System.nanoTime() - t0) / 1_000_000;

    assertEquals(1, run.rc(), "the job killed after the grace fails: " + run.lines());
    assertEquals("INT", row(run, "stopped", "dd.0"));
    assertEquals(130, rc(run, "dd.0"));
    assertTrue(
        run.rest("err").stream().anyMatch(l -> l.startsWith("dd.0\t") && l.contains("copied")),
        "dd printed its summary: " + run.lines());
    assertEquals("INT", row(run, "stopped", "polite.0"));
    assertEquals(0, rc(run, "polite.0"));
    assertEquals(List.of("got-int"), out(run, "polite.0"));
    assertEquals("KILL", row(run, "stopped", "deaf.0"));
    assertEquals(137, rc(run, "deaf.0"));
    assertEquals(null, row(run, "stopped", "quick.0"));
    assertTrue(tookMs < Tools.millis(5000), "took " + tookMs + " ms");
    assertEquals(List.of(), Procs.awaitNone(marker, 3000));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void jobsStoppedInTimeMakeAnOkTrial(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);

    Result run =
        agent.call(
            "run",
            lines(
                List.of(
                    job("dd.0", List.of("dd", "if=/dev/zero", "of=/dev/null", "bs=64k")),
                    List.of(tab("duration", "0.3"), tab("timeout", "20")))));

    assertEquals(0, run.rc(), run.lines().toString());
    assertEquals("INT", row(run, "stopped", "dd.0"));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void monitorsRunFromJustBeforeTheReleaseUntilStop(String shell, @TempDir Path dir)
      throws Exception {
    String marker = Procs.marker("TUNELAB_TEST_MONITOR");
    AgentHarness agent = new AgentHarness(shell, dir);
    String tick = "date +%s%N; while :; do sleep 0.1; echo tick; echo tick >>TICKS; done";
    try (Server server = agent.serve()) {
      Result start =
          server.request(
              "start",
              lines(
                  List.of(
                      job("w.0", List.of("sleep", "0.4")),
                      List.of(tab("monitor", "ticker@client"), tab("env", marker)),
                      sh(tick).stream().map(a -> tab("arg", a)).toList())));
      assertEquals(0, start.rc(), start.stderr());
      // The monitor's first line is the time it started: after go was sent, not at start.
      long beforeGo = epochNanos();

      assertEquals(0, server.request("go").rc());
      Result wait = server.request("wait");
      // this host's job has ended; another host's may not have: the monitor goes on
      assertEquals(0, wait.rc(), wait.stderr());
      assertEquals(List.of(), wait.rest("monitor"));
      assertEquals(0, rc(wait, "w.0"));
      assertTrue(ticksOn(agent, 2), "the monitor runs until stop");
      assertEquals(3, server.request("start", tab("job", "x"), tab("arg", "true")).rc());
      Result stop = server.request("stop");

      assertEquals(0, stop.rc(), stop.stderr());
      assertEquals(List.of(), stop.rest("job"), "the jobs were reported by wait");
      assertEquals(tab("ticker@client", "143"), stop.rest("monitor").get(0));
      List<String> rows = out(stop, "ticker@client");
      assertTrue(Long.parseLong(rows.get(0)) >= beforeGo, "a monitor ran before go: " + rows);
      // Every tick the monitor wrote to its file came out, and one more if it was stopped
      // between the two echos: how many there were is up to the machine's speed, not the test.
      int written = Files.readAllLines(agent.knobPath("TICKS")).size();
      assertTrue(written >= 2, "ticks written: " + written);
      assertEquals(List.of("tick"), rows.subList(1, rows.size()).stream().distinct().toList());
      assertTrue(
          rows.size() - 1 == written || rows.size() - 1 == written + 1,
          written + " written: " + rows);
      assertEquals(List.of(), Procs.awaitNone(marker, 2000), "the monitor stopped");
      assertFalse(Files.exists(agent.state().resolve("jobs")));
      assertEquals(2, server.request("stop").rc(), "nothing left to stop");
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void monitorsWithoutJobsRunUntilStop(String shell, @TempDir Path dir) throws Exception {
    String marker = Procs.marker("TUNELAB_TEST_MONITOR");
    AgentHarness agent = new AgentHarness(shell, dir);
    try (Server server = agent.serve()) {
      List<String> payload =
          new ArrayList<>(List.of(tab("monitor", "m@server"), tab("env", marker)));
      sh("while :; do echo tick; echo tick >>TICKS; sleep 0.1; done")
          .forEach(a -> payload.add(tab("arg", a)));
      assertEquals(0, server.request("start", payload.toArray(String[]::new)).rc());
      assertEquals(0, server.request("go").rc());
      assertTrue(ticksOn(agent, 3), "the monitor runs until stop");

      Result stop = server.request("stop");

      assertEquals(0, stop.rc(), stop.stderr());
      assertEquals(List.of(), stop.rest("job"));
      assertTrue(out(stop, "m@server").size() >= 3, stop.lines().toString());
      assertEquals(List.of(), Procs.awaitNone(marker, 2000));
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void waitWithoutGoCallsTheTrialOff(String shell, @TempDir Path dir) throws Exception {
    AgentHarness agent = new AgentHarness(shell, dir);
    try (Server server = agent.serve()) {
      assertEquals(
          0,
          server
              .request(
                  "start",
                  lines(
                      List.of(
                          job("a.0", sh("touch RAN")),
                          List.of(tab("monitor", "m@x"), tab("arg", "touch"), tab("arg", "MON")))))
              .rc());

      Result wait = server.request("wait");
      Result stop = server.request("stop");

      assertEquals(1, wait.rc());
      assertEquals(130, rc(wait, "a.0"));
      assertEquals(0, stop.rc(), stop.stderr());
      assertFalse(Files.exists(agent.knobPath("RAN")));
      assertFalse(Files.exists(agent.knobPath("MON")));
      assertTrialFilesCleared(agent);
      assertEquals(0, server.request("run", tab("job", "again"), tab("arg", "true")).rc());
    }
    assertFalse(Files.exists(agent.state().resolve("jobs")));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void oneTrialAtATimeAndTheVerbsInOrder(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);
    try (Server server = agent.serve()) {
      assertEquals(2, server.request("go").rc(), "go before start");
      assertEquals(2, server.request("wait").rc(), "wait before start");
      assertEquals(2, server.request("stop").rc(), "stop before start");
      String[] sleeper = lines(List.of(job("s.0", List.of("sleep", "0.2"))));
      assertEquals(0, server.request("start", sleeper).rc());
      assertEquals(3, server.request("start", sleeper).rc(), "a second start");
      assertEquals(3, server.request("run", sleeper).rc(), "a run meanwhile");
      assertEquals(0, server.request("go").rc());
      assertEquals(2, server.request("go").rc(), "a second go");
      assertEquals(0, server.request("wait").rc());
      assertEquals(2, server.request("wait").rc(), "a second wait");
      assertEquals(2, server.request("stop").rc(), "a trial without monitors ends at wait");
      assertEquals(0, server.request("start", sleeper).rc());
      assertEquals(0, server.request("go").rc());
      Result stop = server.request("stop");
      assertEquals(0, stop.rc(), "stop alone reports the jobs too");
      assertEquals(0, rc(stop, "s.0"));
    }
    Result oneShot = agent.call("start", tab("job", "x"), tab("arg", "true"));
    assertEquals(2, oneShot.rc());
    assertTrue(oneShot.stderr().contains("serve verb"), oneShot.stderr());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aMalformedStartStartsNothing(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);
    for (String bad :
        List.of(
            tab("nice", "20"),
            tab("nice", "x"),
            tab("ionice", "rt/8"),
            tab("ionice", "realtime"),
            tab("cpus", "0;touch PWNED"),
            tab("stdout", "some"),
            tab("duration", "1m"),
            tab("job_duration", "1m"),
            tab("job_timeout", ""),
            tab("stop_grace", "-1"))) {
      try (Server server = agent.serve()) {
        Result start =
            server.request("start", tab("job", "a.0"), tab("arg", "touch"), tab("arg", "RAN"), bad);
        assertEquals(2, start.rc(), bad);
        assertFalse(Files.exists(agent.state().resolve("jobs")), bad);
      }
    }
    try (Server server = agent.serve()) {
      Result monitorNice =
          server.request("start", tab("monitor", "m"), tab("arg", "true"), tab("nice", "1"));
      assertEquals(2, monitorNice.rc());
      Result monitorDuration =
          server.request(
              "start", tab("monitor", "m"), tab("arg", "true"), tab("job_duration", "1"));
      assertEquals(2, monitorDuration.rc());
      Result beforeAnyJob =
          server.request("start", tab("job_timeout", "1"), tab("job", "a.0"), tab("arg", "true"));
      assertEquals(2, beforeAnyJob.rc());
    }
    assertFalse(Files.exists(agent.knobPath("RAN")));
    assertFalse(Files.exists(agent.knobPath("PWNED")));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aStartedTrialEndsWithItsAgent(String shell, @TempDir Path dir) throws Exception {
    String marker = Procs.marker("TUNELAB_TEST_JOB");
    String agentMarker = Procs.marker("TUNELAB_TEST_AGENT");
    AgentHarness agent =
        new AgentHarness(shell, dir)
            .env("TUNELAB_TEST_AGENT", agentMarker.substring(agentMarker.indexOf('=') + 1));
    // one host started, never released: its controller went away
    Server held = agent.serve();
    assertEquals(
        0,
        held.request(
                "start", lines(List.of(job("s.0", sh("touch RAN; sleep 30"), tab("env", marker)))))
            .rc());
    held.closeStdin();
    assertTrue(held.waitFor(10), "the agent exits; stderr: " + held.stderr());
    assertFalse(Files.exists(agent.knobPath("RAN")), "a job ran without go");
    assertEquals(List.of(), Procs.awaitNone(agentMarker, 3000));
    assertFalse(Files.exists(agent.state().resolve("jobs")), "jobs dir left");

    // released and running, and then its controller goes away: the group ends with it
    Server released = agent.serve();
    assertEquals(
        0,
        released
            .request("start", lines(List.of(job("s.0", sh("sleep 30"), tab("env", marker)))))
            .rc());
    assertEquals(0, released.request("go").rc());
    assertFalse(Procs.awaitSome(marker, 5000).isEmpty(), "the job started");
    released.closeStdin();
    assertTrue(released.waitFor(10), "the agent exits; stderr: " + released.stderr());
    assertEquals(List.of(), Procs.awaitNone(marker, 3000));
    assertEquals(List.of(), Procs.awaitNone(agentMarker, 3000));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aNewServeTakesOverFromAnAgentWhoseTrialIsRunning(String shell, @TempDir Path dir)
      throws Exception {
    String marker = Procs.marker("TUNELAB_TEST_JOB");
    AgentHarness agent = new AgentHarness(shell, dir).env("TUNELAB_GRACE", "30");
    Path knob = agent.knob("read_ahead_kb", "128");
    Server old = agent.serve();
    assertEquals(0, old.request("apply", tab("set", knob, "4096")).rc());
    for (String verb : List.of("run", "start")) {
      // blocked in a run's wait, or idle between go and wait
      Server holder = old;
      if (verb.equals("start")) {
        assertEquals(
            0,
            holder
                .request(
                    "start", lines(List.of(job("s.0", List.of("sleep", "30"), tab("env", marker)))))
                .rc());
        assertEquals(0, holder.request("go").rc());
      } else {
        holder.send("run", lines(List.of(job("s.0", List.of("sleep", "30"), tab("env", marker)))));
      }
      assertFalse(Procs.awaitSome(marker, 5000).isEmpty(), "the job started");
      holder.closeStdin();
      agent.env("TUNELAB_LOCK_WAIT", "30");

      Server next = agent.serve();
      assertEquals(0, next.request("hello").rc());

      assertTrue(holder.waitFor(5), "the old agent exits");
      assertEquals(List.of(), Procs.awaitNone(marker, 3000), verb + ": the trial ended");
      old = next;
    }
    assertEquals(List.of(tab("restored", knob, "128")), old.request("restore").lines());
    old.close();
  }

  private static long epochNanos() {
    java.time.Instant now = java.time.Instant.now();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }

  /**
   * Whether the ticker monitor ticks {@code more} times from now on, within 10 s: it still runs,
   * seen by what it does instead of by sleeping first. It counts in a file of its own, since the
   * agent keeps a monitor's output through a buffered filter.
   */
  private static boolean ticksOn(AgentHarness agent, int more) throws Exception {
    Path out = agent.knobPath("TICKS");
    long from = Files.exists(out) ? Files.readAllLines(out).size() : 0;
    long deadline = System.nanoTime() + Tools.millis(10_000) * 1_000_000L;
    while (System.nanoTime() < deadline) {
      if (Files.exists(out) && Files.readAllLines(out).size() >= from + more) {
        return true;
      }
      Thread.sleep(20);
    }
    return false;
  }
}
