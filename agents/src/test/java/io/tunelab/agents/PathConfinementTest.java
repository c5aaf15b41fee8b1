package io.tunelab.agents;

import static io.tunelab.agents.AgentHarness.read;
import static io.tunelab.agents.AgentHarness.tab;
import static io.tunelab.agents.AgentHarness.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.agents.AgentHarness.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every knob path is resolved and must stay in /sys, /proc/sys or /proc/fs (here also in the test's
 * knob directory, through the TUNELAB_KNOB_ROOT hook); per-process /proc paths are refused whatever
 * they resolve to. Nothing outside is read, written or journaled.
 */
class PathConfinementTest {

  /** A file outside every allowed tree, standing in for /etc/passwd where a write could land. */
  private static Path outside(Path dir) throws IOException {
    Path file = Files.createDirectories(dir.resolve("outside")).resolve("passwd");
    write(file, "root:x:0:0:root:/root:/bin/sh\n");
    return file;
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void readRefusesPathsOutsideTheKnobTrees(String shell, @TempDir Path dir) throws IOException {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path link = Files.createSymbolicLink(agent.knobPath("evil"), Path.of("/etc/passwd"));
    List<String> refused =
        List.of(
            "/proc/1/root/etc/passwd",
            "/proc/self/environ",
            "/proc/thread-self/environ",
            link.toString(),
            "/sys/../etc/passwd",
            "/proc/sys/../../etc/passwd",
            "etc/passwd");
    Path good = agent.knob("read_ahead_kb", "128");
    List<String> paths = new java.util.ArrayList<>(refused);
    paths.add(good.toString());

    Result read = agent.call("read", paths.toArray(String[]::new));

    assertEquals(1, read.rc(), read.stderr());
    List<String> fails = read.rest("fail");
    assertEquals(refused.size(), fails.size(), read.lines().toString());
    for (int i = 0; i < refused.size(); i++) {
      assertTrue(fails.get(i).startsWith(refused.get(i) + "\trefused: "), fails.get(i));
    }
    assertEquals(List.of(tab(good, "128")), read.rest("rw"));
    assertFalse(String.join("\n", read.lines()).contains("root:"), "passwd leaked");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aRefusedPathStopsTheWholeApply(String shell, @TempDir Path dir) throws IOException {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path passwd = outside(dir);
    Path link = Files.createSymbolicLink(agent.knobPath("evil"), passwd);
    Path good = agent.knob("read_ahead_kb", "128");
    // Resolves into the knob directory, but through pid 1's view of the file system.
    String viaPid1 = "/proc/1/root" + agent.knob("nr_requests", "64");
    String viaSelf = "/proc/self/root" + agent.knobPath("nr_requests");

    Result apply =
        agent.call(
            "apply",
            tab("set", good, "4096"),
            tab("set", link, "hacked"),
            tab("save", viaPid1),
            tab("set", viaSelf, "1"),
            tab("check", good));

    assertEquals(1, apply.rc());
    List<String> fails = apply.rest("fail");
    assertTrue(
        fails.contains(tab(good, "not written: the request names a refused path")),
        fails.toString());
    assertTrue(
        fails.stream().anyMatch(f -> f.startsWith(link + "\trefused: resolves to " + passwd)),
        fails.toString());
    assertTrue(
        fails.stream().anyMatch(f -> f.startsWith(viaPid1 + "\trefused: a per-process")),
        fails.toString());
    assertTrue(
        fails.stream().anyMatch(f -> f.startsWith(viaSelf + "\trefused: a per-process")),
        fails.toString());
    assertEquals(List.of(tab(good, "128"), tab(good, "128")), apply.rest("eff"));
    assertEquals("root:x:0:0:root:/root:/bin/sh\n", read(passwd));
    assertEquals("128\n", read(good));
    assertEquals("64\n", read(agent.knobPath("nr_requests")));
    assertFalse(Files.exists(agent.journal()), "nothing journaled");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void restoreNeverWritesOutsideTheKnobTrees(String shell, @TempDir Path dir) throws IOException {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path passwd = outside(dir);
    Path good = agent.knob("read_ahead_kb", "4096");
    agent.createState();
    write(
        agent.journal(),
        String.join(
            "\n",
            tab("#boot", AgentHarness.bootId()),
            tab(passwd, "hacked"),
            tab("/proc/1/root" + good, "1"),
            tab(good, "128"),
            ""));

    Result restore = agent.call("restore");

    assertEquals(1, restore.rc());
    assertTrue(restore.lines().get(0).startsWith(tab("fail", passwd, "refused: ")));
    assertTrue(restore.lines().get(1).startsWith(tab("fail", "/proc/1/root" + good, "refused: ")));
    assertEquals(tab("restored", good, "128"), restore.lines().get(2));
    assertEquals("root:x:0:0:root:/root:/bin/sh\n", read(passwd));
    assertEquals("128\n", read(good));
    assertFalse(Files.exists(agent.journal()), "refused lines are dropped, not retried forever");
  }
}
