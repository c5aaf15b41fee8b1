package io.tunelab.agents;

import static io.tunelab.agents.AgentHarness.tab;
import static io.tunelab.agents.TrialTest.job;
import static io.tunelab.agents.TrialTest.lines;
import static io.tunelab.agents.TrialTest.out;
import static io.tunelab.agents.TrialTest.sh;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tunelab.agents.AgentHarness.Result;
import io.tunelab.agents.AgentHarness.Server;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A serve takes the snapshots whose kernel lines come from its own copy of the kernel log with one
 * awk it starts once: no awk per snapshot, none left when the serve ends, none held by a trial, and
 * an awk forked per snapshot again once that one has gone.
 */
class SnapshotReaderTest {

  private static final List<String> FIGURES =
      List.of("boot_id", "cursor", "pswpin", "pswpout", "throttle", "cpufreq", "disk_read");

  /** An agent whose awk is a wrapper that logs each snapshot's awk to {@code awk.log}. */
  private static AgentHarness countingAwk(String shell, Path dir) throws Exception {
    return loggingAwk(shell, dir, "");
  }

  /**
   * An agent whose awk is a wrapper that logs each awk that runs the snapshot's program to {@code
   * awk.log}: a line of its pid and then what the shell words {@code more} print.
   */
  static AgentHarness loggingAwk(String shell, Path dir, String more) throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path awk = bin.resolve("awk");
    Files.writeString(
        awk,
        "#!/bin/sh\ncase $* in *snap_begin*) echo $$ "
            + more
            + " >> '"
            + dir.resolve("awk.log")
            + "' ;; esac\nexec "
            + Tools.require("awk")
            + " \"$@\"\n");
    Files.setPosixFilePermissions(awk, PosixFilePermissions.fromString("rwxr-xr-x"));
    return new AgentHarness(shell, dir).env("PATH", bin + ":" + System.getenv("PATH"));
  }

  static List<String> awkStarts(Path dir) throws Exception {
    Path log = dir.resolve("awk.log");
    return Files.exists(log) ? Files.readAllLines(log) : List.of();
  }

  private static Result trial(Server server, Path knob) {
    return server.request(
        "run", lines(List.of(List.of("health", tab("check", knob)), job("w", sh("true")))));
  }

  private static void assertSnapshots(Result run) {
    assertEquals(0, run.rc(), run.stderr());
    for (String prefix : List.of("before", "after")) {
      List<String> keys = run.rest(prefix).stream().map(l -> l.split("\t", 2)[0]).toList();
      assertTrue(keys.containsAll(FIGURES), prefix + ": " + run.lines());
    }
  }

  /** The serve's snapshot reader, once it runs: the awk started once, whose pid awk.log holds. */
  static long reader(Path dir) throws Exception {
    long deadline = System.nanoTime() + Tools.millis(10_000) * 1_000_000;
    while (System.nanoTime() < deadline) {
      List<String> starts = awkStarts(dir);
      long pid = starts.isEmpty() ? -1 : Long.parseLong(starts.get(0).split(" ")[0]);
      if (pid > 0 && Procs.alive(pid)) {
        return pid;
      }
      Thread.sleep(20);
    }
    return fail("no snapshot reader: " + awkStarts(dir));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void oneAwkTakesEverySnapshotOfAServe(String shell, @TempDir Path dir) throws Exception {
    AgentHarness agent = countingAwk(shell, dir);
    Path knob = agent.knob("k", "1");
    try (Server server = agent.serve()) {
      for (int i = 0; i < 3; i++) {
        assertSnapshots(trial(server, knob));
      }
      Result apply = server.request("apply", tab("set", knob, "2"), "health");
      String cursor =
          apply.rest("before").stream()
              .filter(l -> l.startsWith("cursor\t"))
              .map(l -> l.substring("cursor\t".length()))
              .findFirst()
              .orElseThrow(() -> new AssertionError(apply.lines().toString()));
      Result health = server.request("health", tab("cursor", cursor), tab("check", knob));

      assertEquals(0, apply.rc(), apply.stderr());
      assertEquals(0, health.rc(), health.stderr());
      assertEquals(List.of(tab("ok", knob, "2")), health.rest("knob"));
      assertEquals("0", health.value("klines").orElseThrow(), health.lines().toString());
      assertEquals(1, awkStarts(dir).size(), "awk started per snapshot: " + awkStarts(dir));
      assertTrue(Procs.alive(reader(dir)));
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void theSnapshotReaderEndsWithTheServe(String shell, @TempDir Path dir) throws Exception {
    AgentHarness agent = countingAwk(shell, dir);
    try (Server server = agent.serve()) {
      assertSnapshots(trial(server, agent.knob("k", "1")));
      long reader = reader(dir);

      assertEquals(0, server.closeAndWait(), server.stderr());

      assertEquals(List.of(), Procs.awaitGone(List.of(reader), 10_000), "left by the serve");
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void theSnapshotReaderEndsWhenTheServeIsKilled(String shell, @TempDir Path dir) throws Exception {
    AgentHarness agent = countingAwk(shell, dir);
    try (Server server = agent.serve()) {
      // Then the next trial's leader is forked ahead: it holds nothing that keeps the reader.
      assertSnapshots(trial(server, agent.knob("k", "1")));
      long reader = reader(dir);

      Procs.kill("KILL", Long.toString(server.pid()));

      assertEquals(List.of(), Procs.awaitGone(List.of(reader), 10_000), "left by a killed serve");
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void noProcessOfATrialHoldsTheReadersInput(String shell, @TempDir Path dir) throws Exception {
    AgentHarness agent = countingAwk(shell, dir);
    try (Server server = agent.serve()) {
      Path knob = agent.knob("k", "1");
      assertSnapshots(trial(server, knob));
      Result run =
          server.request(
              "run",
              lines(
                  List.of(
                      List.of("health"),
                      job("fds", sh("for f in /proc/$$/fd/*; do readlink $f; done; true")))));

      assertSnapshots(run);
      List<String> fds = out(run, "fds");
      assertTrue(fds.stream().anyMatch(f -> f.startsWith("/")), run.lines().toString());
      assertTrue(fds.stream().noneMatch(f -> f.endsWith("snap.in")), fds.toString());
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void theSnapshotReaderRelaysAnAnswerWithTheWorkloadsOutputWithoutASed(
      String shell, @TempDir Path dir) throws Exception {
    AgentHarness agent = countingAwk(shell, dir);
    Path sed = dir.resolve("bin").resolve("sed");
    Files.writeString(
        sed,
        "#!/bin/sh\necho $$ >> '"
            + dir.resolve("sed.log")
            + "'\nexec "
            + Tools.require("sed")
            + " \"$@\"\n");
    Files.setPosixFilePermissions(sed, PosixFilePermissions.fromString("rwxr-xr-x"));
    String[] printing =
        lines(List.of(List.of("health"), job("w", sh("printf 'a|b\\n\\n$ 0\\nlast'"))));
    try (Server server = agent.serve()) {
      Result relayed = server.request("run", printing);
      long reader = reader(dir);
      Procs.kill("KILL", Long.toString(reader));
      assertEquals(List.of(), Procs.awaitGone(List.of(reader), 10_000));
      Result bySed = server.request("run", printing);

      assertSnapshots(relayed);
      assertEquals(
          List.of("a|b", "", "$ 0", "last"), out(relayed, "w"), relayed.lines().toString());
      assertEquals(out(bySed, "w"), out(relayed, "w"));
      assertEquals(
          bySed.lines().stream().map(l -> l.split("\t", 2)[0]).toList(),
          relayed.lines().stream().map(l -> l.split("\t", 2)[0]).toList());
      Path log = dir.resolve("sed.log");
      // The sed of the answer the serve relayed itself, once the reader had gone.
      assertEquals(1, Files.readAllLines(log).size(), Files.readAllLines(log).toString());
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void theSnapshotReaderWritesEachShortAnswerInOneWrite(String shell, @TempDir Path dir)
      throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path log = dir.resolve("writes.log");
    Path awk = bin.resolve("awk");
    // Only the snapshot reader (the one awk whose program reads SNAP_OUT) runs under strace.
    Files.writeString(
        awk,
        "#!/bin/sh\ncase $* in *SNAP_OUT*) exec "
            + Tools.require("strace")
            + " -q -s 4096 -e trace=write -o '"
            + log
            + "' "
            + Tools.require("awk")
            + " \"$@\" ;; esac\nexec "
            + Tools.require("awk")
            + " \"$@\"\n");
    Files.setPosixFilePermissions(awk, PosixFilePermissions.fromString("rwxr-xr-x"));
    AgentHarness agent =
        new AgentHarness(shell, dir).env("PATH", bin + ":" + System.getenv("PATH"));
    try (Server server = agent.serve()) {
      Result run =
          server.request(
              "run", lines(List.of(List.of("health"), job("w", sh("printf 'a\\nb\\nc\\n'")))));
      assertSnapshots(run);
      assertEquals(List.of("a", "b", "c"), out(run, "w"), run.lines().toString());
      assertEquals(0, server.request("hello").rc());
    }
    // The serve's end ends the reader, and strace with it: then its log is whole.
    long deadline = System.nanoTime() + Tools.millis(10_000) * 1_000_000;
    while (System.nanoTime() < deadline
        && !(Files.exists(log) && Files.readString(log).contains("+++ exited"))) {
      Thread.sleep(20);
    }
    assertTrue(Files.readString(log).contains("+++ exited"), "the reader did not end");
    List<String> answers =
        Files.readAllLines(log).stream().filter(l -> l.startsWith("write(1, ")).toList();
    // Two answers, each its lines and status line in a single write(2): one wake-up and one
    // packet each on the controller's side.
    assertEquals(2, answers.size(), String.join("\n", answers));
    assertTrue(answers.get(0).contains("|job\\tw\\t0\\t"), answers.get(0));
    assertTrue(answers.get(0).matches(".*\\\\n\\$ 0( [0-9]+)?\\\\n\".*"), answers.get(0));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aSnapshotReaderThatHasGoneLeavesEachSnapshotToAnAwkOfItsOwn(String shell, @TempDir Path dir)
      throws Exception {
    AgentHarness agent = countingAwk(shell, dir);
    Path knob = agent.knob("k", "1");
    try (Server server = agent.serve()) {
      assertSnapshots(trial(server, knob));
      long reader = reader(dir);
      Procs.kill("KILL", Long.toString(reader));
      assertEquals(List.of(), Procs.awaitGone(List.of(reader), 10_000));

      Result first = trial(server, knob);
      Result second = trial(server, knob);

      assertSnapshots(first);
      assertSnapshots(second);
      assertEquals(List.of(tab("ok", knob, "1")), second.rest("knob"));
      assertTrue(first.stderr().contains("the snapshot reader"), first.stderr());
      // The reader, then two per trial: the before- and the after-snapshot.
      assertEquals(5, awkStarts(dir).size(), awkStarts(dir).toString());
    }
  }
}
