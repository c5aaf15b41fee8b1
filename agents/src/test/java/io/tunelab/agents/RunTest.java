package io.tunelab.agents;

import static io.tunelab.agents.AgentHarness.tab;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.agents.AgentHarness.Result;
import io.tunelab.agents.AgentHarness.Server;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The {@code run} verb: jobs forked, released together, timed on the host. */
class RunTest {

  /** One {@code job} line of a response. */
  record Job(String name, int rc, long startNs, long endNs) {
    static Job parse(String rest) {
      String[] f = rest.split("\t");
      assertEquals(4, f.length, rest);
      return new Job(f[0], Integer.parseInt(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]));
    }

    long millis() {
      return (endNs - startNs) / 1_000_000;
    }
  }

  private static List<Job> jobs(Result result) {
    return result.rest("job").stream().map(Job::parse).collect(Collectors.toList());
  }

  private static List<String> payload(String name, String... argv) {
    List<String> lines = new ArrayList<>();
    lines.add(tab("job", name));
    for (String word : argv) {
      lines.add(tab("arg", word));
    }
    return lines;
  }

  private static String[] concat(List<List<String>> parts) {
    return parts.stream().flatMap(List::stream).toArray(String[]::new);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void jobsStartTogetherAndAreTimedOnTheHost(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);

    Result run =
        agent.call(
            "run",
            concat(List.of(payload("dd.0", "sleep", "0.5"), payload("dd.1", "sleep", "0.5"))));

    assertEquals(0, run.rc(), run.stderr());
    List<Job> jobs = jobs(run);
    assertEquals(List.of("dd.0", "dd.1"), jobs.stream().map(Job::name).toList());
    for (Job job : jobs) {
      assertEquals(0, job.rc());
      assertTrue(job.millis() >= 500 && job.millis() < Tools.millis(1500), job.toString());
    }
    long startSkewMs = Math.abs(jobs.get(0).startNs() - jobs.get(1).startNs()) / 1_000_000;
    assertTrue(startSkewMs < Tools.millis(200), "start skew " + startSkewMs + " ms");
    assertFalse(Files.exists(agent.state().resolve("jobs")), "job files left behind");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void argvWordsReachTheProgramUnparsed(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);
    String nasty =
        "a b 'q' \"dq\" $(touch PWNED) `touch PWNED2`; touch PWNED3 | cat && x\ty $HOME *";

    Result run =
        agent.call(
            "run",
            concat(
                List.of(
                    payload("inert", "printf", "%s", nasty),
                    payload("empty", "sh", "-c", "printf '%s|' \"$@\"", "sh", "", "c d"))));

    assertEquals(0, run.rc(), run.stderr());
    assertEquals(List.of(tab("inert", nasty), tab("empty", "|c d|")), run.rest("out"));
    for (String marker : List.of("PWNED", "PWNED2", "PWNED3")) {
      assertFalse(Files.exists(agent.knobPath(marker)), marker + " was created");
    }
  }

  @Tag("integration") // as root: another user meets unreadable PATH entries (126, not 127)
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void exitStatusesPropagate(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);

    Result run =
        agent.call(
            "run",
            concat(
                List.of(
                    payload("ok", "true"),
                    payload("three", "sh", "-c", "exit 3"),
                    payload("absent", "no-such-program-tunelab"))));

    assertEquals(1, run.rc());
    assertEquals(List.of(0, 3, 127), jobs(run).stream().map(Job::rc).toList());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void stdoutAndStderrAreKeptApartAndTrimmedTo200Lines(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);

    Result run =
        agent.call(
            "run",
            concat(
                List.of(
                    payload("mixed", "sh", "-c", "echo out1; echo err1 >&2; echo out2"),
                    payload(
                        "long",
                        "sh",
                        "-c",
                        "i=0; while [ $i -lt 250 ]; do i=$((i+1)); echo $i; done"))));

    assertEquals(0, run.rc(), run.stderr());
    List<String> expected = new ArrayList<>(List.of(tab("mixed", "out1"), tab("mixed", "out2")));
    IntStream.rangeClosed(51, 250).forEach(i -> expected.add(tab("long", i)));
    assertEquals(expected, run.rest("out"));
    assertEquals(List.of(tab("mixed", "err1")), run.rest("err"));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void envLinesAndTheCLocaleReachTheJob(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);
    List<String> lines = payload("env", "sh", "-c", "echo \"$FOO|$LC_ALL|$J\"");
    lines.add(tab("env", "FOO=bar  baz"));
    lines.add(tab("env", "J=not-the-agents"));

    Result run = agent.call("run", lines.toArray(String[]::new));

    assertEquals(0, run.rc(), run.stderr());
    assertEquals(List.of(tab("env", "bar  baz|C|not-the-agents")), run.rest("out"));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aTimeoutKillsRunningJobsWith124(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);
    List<String> lines = payload("slow", "sleep", "10");
    lines.addAll(payload("quick", "true"));
    lines.add(tab("timeout", "0.5"));

    long t0 = System.nanoTime();
    Result run = agent.call("run", lines.toArray(String[]::new));
    long wallMs = (System.nanoTime() - t0) / 1_000_000;

    assertEquals(1, run.rc());
    List<Job> jobs = jobs(run);
    assertEquals(124, jobs.get(0).rc());
    assertEquals(0, jobs.get(1).rc());
    assertTrue(jobs.get(0).millis() < Tools.millis(3000), jobs.get(0).toString());
    assertTrue(wallMs < Tools.millis(5000), "took " + wallMs + " ms");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aTimeoutAlsoKillsTheWorkloadsChildren(String shell, @TempDir Path dir)
      throws InterruptedException, IOException {
    AgentHarness agent = new AgentHarness(shell, dir);
    List<String> lines =
        payload("tree", "sh", "-c", "sh -c 'echo $$ >CHILD; sleep 0.8; touch SURVIVED' & wait");
    lines.add(tab("timeout", "0.3"));

    Result run = agent.call("run", lines.toArray(String[]::new));
    // The child is gone either way before long: killed, or after touching SURVIVED.
    Path proc = Path.of("/proc", Files.readString(agent.knobPath("CHILD")).strip());
    long deadline = System.nanoTime() + Tools.millis(10_000) * 1_000_000L;
    while (Files.exists(proc) && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }

    assertFalse(Files.exists(proc), "the child still runs 10 s after the timeout");
    assertEquals(124, jobs(run).get(0).rc());
    assertFalse(Files.exists(agent.knobPath("SURVIVED")), "a child outlived the timeout");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aMalformedRunStartsNothing(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);

    Result run = agent.call("run", tab("arg", "touch"), tab("arg", "STARTED"), tab("job", "late"));

    assertEquals(2, run.rc());
    assertEquals(List.of(), run.lines());
    assertFalse(Files.exists(agent.knobPath("STARTED")));
    assertFalse(Files.exists(agent.state().resolve("jobs")));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void cancelFromASecondCallKillsTheRunningJob(String shell, @TempDir Path dir)
      throws IOException, InterruptedException {
    AgentHarness agent = new AgentHarness(shell, dir);
    try (Server server = agent.serve()) {
      server.send("run", concat(List.of(payload("forever", "sleep", "30"))));
      Path pids = agent.state().resolve("jobs/pids");
      long deadline = System.nanoTime() + Tools.millis(10_000) * 1_000_000L;
      while (!(Files.exists(pids) && Files.size(pids) > 0) && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      // "PID START"
      String pid = Files.readString(pids).trim().split(" ")[0];

      Result cancel = agent.call("cancel");
      Result run = server.await();

      assertEquals(0, cancel.rc(), cancel.stderr());
      assertEquals(List.of(tab("killed", pid)), cancel.lines());
      assertEquals(1, run.rc());
      Job job = jobs(run).get(0);
      assertTrue(job.rc() != 0 && job.millis() < Tools.millis(10_000), job.toString());
      assertEquals(0, server.request("hello").rc(), "the agent keeps serving");
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void cancelWithoutARunDoesNothing(String shell, @TempDir Path dir) {
    Result cancel = new AgentHarness(shell, dir).call("cancel");

    assertEquals(0, cancel.rc(), cancel.stderr());
    assertEquals(List.of(), cancel.lines());
  }
}
