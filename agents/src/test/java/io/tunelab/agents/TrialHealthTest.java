package io.tunelab.agents;

import static io.tunelab.agents.AgentHarness.tab;
import static io.tunelab.agents.TrialTest.job;
import static io.tunelab.agents.TrialTest.lines;
import static io.tunelab.agents.TrialTest.sh;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.agents.AgentHarness.Result;
import io.tunelab.agents.AgentHarness.Server;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A trial's health snapshots and knob read-back in the trial's own answer: {@code before} rows
 * first, {@code after} and {@code knob} rows last; the same from {@code apply} and {@code health}
 * for a host outside the trial; the kernel's lines of one trial and no other, from the serve's own
 * copy of the kernel log.
 */
class TrialHealthTest {

  private static List<String> figures(Result r, String prefix) {
    return r.rest(prefix).stream().map(l -> l.split("\t", 2)[0]).toList();
  }

  private static String figure(Result r, String prefix, String key) {
    return r.rest(prefix).stream()
        .filter(l -> l.startsWith(key + "\t"))
        .map(l -> l.substring(key.length() + 1))
        .findFirst()
        .orElse(null);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aRunAnswersItsSnapshotsAroundItsJobsAndReadsItsKnobsBackAfterThem(
      String shell, @TempDir Path dir) throws Exception {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path kept = agent.knob("kept", "5");
    Path changed = agent.knob("changed", "1");
    Path gone = agent.knob("gone", "x");
    Path lines = agent.knob("lines", "a");
    Files.writeString(lines, "a\nb\n");
    try (Server server = agent.serve()) {
      Result run =
          server.request(
              "run",
              lines(
                  List.of(
                      List.of(
                          "health",
                          tab("check", kept),
                          tab("check", changed),
                          tab("check", gone),
                          tab("check", lines)),
                      job("w.0", sh("echo 2 > " + changed + "; rm " + gone)))));

      assertEquals(0, run.rc(), run.stderr());
      List<String> kinds = run.lines().stream().map(l -> l.split("\t", 2)[0]).toList();
      int job = kinds.indexOf("job");
      assertTrue(kinds.subList(0, job).stream().allMatch("before"::equals), kinds.toString());
      assertTrue(
          kinds.lastIndexOf("before") < job && kinds.indexOf("after") > job, kinds.toString());
      for (String prefix : List.of("before", "after")) {
        assertTrue(
            figures(run, prefix)
                .containsAll(
                    List.of(
                        "boot_id",
                        "pswpin",
                        "pswpout",
                        "throttle",
                        "cpufreq",
                        "disk_read",
                        "disk_written")),
            run.lines().toString());
        assertEquals(AgentHarness.bootId(), figure(run, prefix, "boot_id"));
      }
      assertEquals(
          List.of(
              tab("ok", kept, "5"),
              tab("ok", changed, "2"),
              tab("missing", gone),
              tab("ok", lines, "a b")),
          run.rest("knob"));
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aRunWithoutHealthAnswersNone(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);
    try (Server server = agent.serve()) {
      Result run = server.request("run", lines(List.of(job("w.0", sh("true")))));

      assertEquals(0, run.rc(), run.stderr());
      assertEquals(List.of(), run.rest("before"));
      assertEquals(List.of(), run.rest("after"));
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void startAnswersTheBeforeSnapshotAndWaitTheAfterOne(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path knob = agent.knob("k", "7");
    try (Server server = agent.serve()) {
      Result start =
          server.request(
              "start",
              lines(List.of(List.of("health", tab("check", knob)), job("w.0", sh("true")))));
      Result go = server.request("go");
      Result await = server.request("wait");

      assertEquals(0, start.rc(), start.stderr());
      assertEquals(AgentHarness.bootId(), figure(start, "before", "boot_id"));
      assertEquals(List.of(), start.rest("after"));
      assertEquals(List.of(), go.rest("before"));
      assertEquals(0, await.rc(), await.stderr());
      assertEquals(AgentHarness.bootId(), figure(await, "after", "boot_id"));
      assertEquals(List.of(tab("ok", knob, "7")), await.rest("knob"));
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aHostOutsideTheTrialGetsItsSnapshotsFromApplyAndHealth(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path knob = agent.knob("k", "1");
    try (Server server = agent.serve()) {
      Result apply = server.request("apply", tab("set", knob, "3"), "health");
      String cursor = figure(apply, "before", "cursor");
      Result after =
          server.request("health", cursor == null ? "" : tab("cursor", cursor), tab("check", knob));

      assertEquals(0, apply.rc(), apply.stderr());
      assertEquals(List.of(tab(knob, "3")), apply.rest("eff"));
      assertEquals(AgentHarness.bootId(), figure(apply, "before", "boot_id"));
      assertEquals(0, after.rc(), after.stderr());
      assertEquals(List.of(tab("ok", knob, "3")), after.rest("knob"));
      if (cursor != null) {
        assertEquals("0", after.value("klines").orElseThrow(), after.lines().toString());
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aKernelWarningIsInTheTrialThatLoggedItAndInNoOther(String shell, @TempDir Path dir) {
    Tools.requireKernelLog(true);
    AgentHarness agent = new AgentHarness(shell, dir);
    String marker = "tunelab-trial-health-" + UUID.randomUUID();
    try (Server server = agent.serve()) {
      Result quietBefore =
          server.request("run", lines(List.of(List.of("health"), job("q", sh("true")))));
      Result loud =
          server.request(
              "run",
              lines(
                  List.of(
                      List.of("health"),
                      job("l", sh("printf '<4>%s\\n' " + marker + " > /dev/kmsg")))));
      Result quietAfter =
          server.request("run", lines(List.of(List.of("health"), job("q", sh("true")))));

      for (Result r : List.of(quietBefore, loud, quietAfter)) {
        assertEquals(0, r.rc(), r.stderr());
        assertTrue(figure(r, "after", "klines") != null, r.lines().toString());
      }
      assertTrue(
          loud.rest("after").contains(tab("kline", marker)),
          "the loud trial's own line: " + loud.lines());
      assertTrue(Integer.parseInt(figure(loud, "after", "klines")) >= 1);
      for (Result quiet : List.of(quietBefore, quietAfter)) {
        assertTrue(
            quiet.lines().stream().noneMatch(l -> l.contains(marker)), quiet.lines().toString());
      }
    }
  }

  /**
   * The kernel wakes the copy's reader at its next tick after a record: a warning logged as the
   * workload's last act is still in its own trial, however soon the after-snapshot follows.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aWarningLoggedAsTheWorkloadEndsIsInItsTrial(String shell, @TempDir Path dir) {
    Tools.requireKernelLog(true);
    AgentHarness agent = new AgentHarness(shell, dir);
    String marker = "tunelab-trial-health-last-" + UUID.randomUUID();
    try (Server server = agent.serve()) {
      for (int i = 0; i < 8; i++) {
        Result r =
            server.request(
                "run",
                lines(
                    List.of(
                        List.of("health"),
                        job("l", sh("printf '<4>%s\\n' " + marker + "-" + i + " > /dev/kmsg")))));

        assertEquals(0, r.rc(), r.stderr());
        assertEquals(
            List.of(tab("kline", marker + "-" + i)),
            r.rest("after").stream().filter(l -> l.startsWith("kline\t")).toList(),
            "trial " + i + ": " + r.lines());
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void theServesCopyOfTheKernelLogEndsWithIt(String shell, @TempDir Path dir) throws Exception {
    Tools.requireKernelLog(false);
    String marker = Procs.marker("TUNELAB_TEST_KMSG");
    AgentHarness agent =
        new AgentHarness(shell, dir).env(marker.split("=")[0], marker.split("=")[1]);
    Server server = agent.serve();
    server.request("hello");
    // The reader starts it: polled until it is there.
    long deadline = System.nanoTime() + Tools.millis(5000) * 1_000_000;
    List<String> running = Procs.awaitSome(marker, 5000);
    while (running.stream().noneMatch(p -> p.contains("dd if=/dev/kmsg"))
        && System.nanoTime() < deadline) {
      Thread.sleep(20);
      running = Procs.withEnv(marker);
    }
    assertTrue(running.stream().anyMatch(p -> p.contains("dd if=/dev/kmsg")), running.toString());

    assertEquals(0, server.closeAndWait());

    assertEquals(List.of(), Procs.awaitNone(marker, 5000));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void nothingOfAKilledServeOutlivesItsInput(String shell, @TempDir Path dir) throws Exception {
    Tools.requireKernelLog(false);
    String marker = Procs.marker("TUNELAB_TEST_KMSG");
    AgentHarness agent =
        new AgentHarness(shell, dir).env(marker.split("=")[0], marker.split("=")[1]);
    try (Server server = agent.serve()) {
      Result run = server.request("run", lines(List.of(List.of("health"), job("q", sh("true")))));
      assertEquals(0, run.rc(), run.stderr());
      assertTrue(figure(run, "before", "cursor").startsWith("kfile:"), run.lines().toString());

      Procs.kill("KILL", Long.toString(server.pid()));
      server.closeStdin();

      // The reader, its copy's dd, the snapshot reader and the leader forked ahead.
      assertEquals(List.of(), Procs.awaitNone(marker, 5000));
    }
  }

  /**
   * A kernel that logs more during a trial than the serve's copy may hold: the copy stops at its
   * cap, the trial still counts the warning logged past it, and the next trials read the kernel log
   * themselves and see their own lines.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aFloodedKernelLogStopsTheCopyAtItsCapAndLosesNoWarning(String shell, @TempDir Path dir)
      throws Exception {
    Tools.requireKernelLog(true);
    AgentHarness agent = new AgentHarness(shell, dir).env("TUNELAB_KMSG_COPY_BLOCKS", "4");
    String marker = "tunelab-trial-health-cap-" + UUID.randomUUID();
    String flood =
        "i=0; while [ $i -lt 40 ]; do printf '<6>tunelab-test flood %s %0100d\\n' $i 0"
            + " > /dev/kmsg; i=$((i + 1)); done; ";
    // The copy's size as the flooding trial's workload sees it, after its warning.
    String size =
        "printf '<4>%s\\n' "
            + marker
            + " > /dev/kmsg; sleep 0.2; stat -c %s "
            + agent.state()
            + "/tmp.*/kmsg";
    try (Server server = agent.serve()) {
      server.request("run", lines(List.of(List.of("health"), job("q", sh("true")))));
      Result flooded =
          server.request("run", lines(List.of(List.of("health"), job("f", sh(flood + size)))));
      String next = "tunelab-trial-health-next-" + UUID.randomUUID();
      Result after =
          server.request(
              "run",
              lines(
                  List.of(
                      List.of("health"),
                      job("n", sh("printf '<4>%s\\n' " + next + " > /dev/kmsg")))));

      assertEquals(0, flooded.rc(), flooded.stderr());
      long copied =
          Long.parseLong(
              flooded.rest("out").stream()
                  .map(l -> l.substring(l.lastIndexOf('\t') + 1))
                  .filter(v -> v.matches("[0-9]+"))
                  .findFirst()
                  .orElseThrow(() -> new AssertionError(flooded.lines().toString())));
      // 4 blocks: 2 KiB where ulimit counts 512 bytes, 4 KiB where it counts KiB (bash).
      assertTrue(copied <= 4096, "the copy holds " + copied + " bytes");
      assertTrue(
          flooded.rest("after").contains(tab("kline", marker)),
          "the warning past the cap: " + flooded.lines());
      assertEquals(0, after.rc(), after.stderr());
      assertEquals("1", figure(after, "after", "klines"), after.lines().toString());
      assertTrue(after.rest("after").contains(tab("kline", next)), after.lines().toString());
    }
  }
}
