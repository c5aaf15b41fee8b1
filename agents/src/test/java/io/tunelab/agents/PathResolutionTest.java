package io.tunelab.agents;

import static io.tunelab.agents.AgentHarness.tab;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.agents.AgentHarness.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The agent's path functions called directly: {@code resolve_paths} maps knob paths to their
 * canonical /sys and /proc/sys form as {@code readlink -m} does, mostly with builtins, and {@code
 * path_allowed} confines them.
 */
class PathResolutionTest {

  /** Prints "ok PATH RESOLVED" or "no PATH REASON" per argument, then the working directory. */
  private static final String CONFINE =
      """
      resolve_paths "$@" || echo unresolved
      for p; do
        if path_allowed "$p"; then
          printf 'ok\\t%s\\t%s\\n' "$p" "$RESOLVED_PATH"
        else
          printf 'no\\t%s\\t%s\\n' "$p" "$FAIL_REASON"
        fi
      done
      printf 'cwd\\t%s\\n' "$PWD"
      """;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void kernelPathsResolveToTheirCanonicalForm(String shell, @TempDir Path dir) throws IOException {
    Path lo = Path.of("/sys/class/net/lo");
    List<String> paths = new ArrayList<>(List.of("/proc/sys/vm/dirty_ratio", lo + "/mtu"));
    try (Stream<Path> devices = Files.list(Path.of("/sys/block"))) {
      devices.findFirst().ifPresent(dev -> paths.add(dev + "/queue/read_ahead_kb"));
    }

    Result result = new AgentLibrary(shell, dir).run(CONFINE, paths.toArray(String[]::new));

    List<String> expected = new ArrayList<>();
    expected.add(tab("ok", "/proc/sys/vm/dirty_ratio", "/proc/sys/vm/dirty_ratio"));
    expected.add(tab("ok", lo + "/mtu", lo.toRealPath().resolve("mtu")));
    for (String path : paths.subList(2, paths.size())) {
      Path dev = Path.of(path).getParent().getParent();
      expected.add(tab("ok", path, dev.toRealPath().resolve("queue/read_ahead_kb")));
    }
    expected.add(tab("cwd", dir.toRealPath()));
    assertEquals(expected, result.lines(), result.stderr());
    assertTrue(lo.toRealPath().startsWith("/sys/devices"), "lo is a link into /sys/devices");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void linksAndMissingDirectoriesResolveAsReadlinkHasThem(String shell, @TempDir Path dir)
      throws IOException {
    Path knobs = Files.createDirectories(dir.resolve("knobs")).toRealPath();
    Path real = Files.createDirectories(knobs.resolve("queue"));
    Files.writeString(real.resolve("nr_requests"), "64\n");
    Files.createSymbolicLink(knobs.resolve("dev"), real);
    Files.createSymbolicLink(knobs.resolve("last"), real.resolve("nr_requests"));
    String[] paths = {
      knobs + "/dev/nr_requests", // a linked directory: the cd -P builtin
      knobs + "/last", // a link at the end: readlink
      knobs + "/gone/nr_requests", // a missing directory: readlink -m
      knobs + "/dev/missing", // a missing file in a linked directory
    };

    Result result =
        new AgentLibrary(shell, dir)
            .env("TUNELAB_KNOB_ROOT", knobs.toString())
            .run(
                """
                resolve_paths "$@" || echo unresolved
                for p; do
                  path_allowed "$p"
                  printf '%s\\t%s\\n' "$RESOLVED_PATH" "$(readlink -m -- "$p")"
                done
                """,
                paths);

    assertEquals(
        List.of(
            tab(real.resolve("nr_requests"), real.resolve("nr_requests")),
            tab(real.resolve("nr_requests"), real.resolve("nr_requests")),
            tab(knobs.resolve("gone/nr_requests"), knobs.resolve("gone/nr_requests")),
            tab(real.resolve("missing"), real.resolve("missing"))),
        result.lines(),
        result.stderr());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void pathsOutsideTheKnobTreesAreRefusedWithTheirReason(String shell, @TempDir Path dir)
      throws IOException {
    Path knobs = Files.createDirectories(dir.resolve("knobs")).toRealPath();
    Path outside = Files.writeString(dir.resolve("passwd"), "root:x:0:0\n").toRealPath();
    Files.createSymbolicLink(knobs.resolve("evil"), outside);

    Result result =
        new AgentLibrary(shell, dir)
            .env("TUNELAB_KNOB_ROOT", knobs.toString())
            .run(
                CONFINE,
                "etc/passwd",
                "/sys//block",
                "/sys/block/./loop0",
                "/proc/sys/../../etc/passwd",
                "/proc/self/environ",
                "/proc/1/root/etc/passwd",
                "/proc/thread-self/environ",
                knobs + "/evil",
                "/etc/passwd");

    assertEquals(
        List.of(
            tab("no", "etc/passwd", "refused: not an absolute path"),
            tab("no", "/sys//block", "refused: not a canonical path (//, . or ..)"),
            tab("no", "/sys/block/./loop0", "refused: not a canonical path (//, . or ..)"),
            tab("no", "/proc/sys/../../etc/passwd", "refused: not a canonical path (//, . or ..)"),
            tab("no", "/proc/self/environ", "refused: a per-process /proc path"),
            tab("no", "/proc/1/root/etc/passwd", "refused: a per-process /proc path"),
            tab("no", "/proc/thread-self/environ", "refused: a per-process /proc path"),
            tab(
                "no",
                knobs + "/evil",
                "refused: resolves to " + outside + ", outside /sys, /proc/sys and /proc/fs"),
            tab(
                "no",
                "/etc/passwd",
                "refused: resolves to /etc/passwd, outside /sys, /proc/sys and /proc/fs"),
            tab("cwd", dir.toRealPath())),
        result.lines(),
        result.stderr());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void onlyResolvedPathsAndTheKnobRootWithAnExplicitStateAreAllowed(String shell, @TempDir Path dir)
      throws IOException {
    Path knobs = Files.createDirectories(dir.resolve("knobs")).toRealPath();
    String knob = knobs + "/nr_requests";
    AgentLibrary agent = new AgentLibrary(shell, dir).env("TUNELAB_KNOB_ROOT", knobs.toString());

    Result unresolved =
        agent.run(
            """
            path_allowed "$1" || printf '%s\\n' "$FAIL_REASON"
            """,
            "/proc/sys/vm/dirty_ratio");
    Result withState = agent.run(CONFINE, knob);
    Result withoutState = agent.env("TUNELAB_STATE", null).run(CONFINE, knob);

    assertEquals(List.of("refused: the path could not be resolved"), unresolved.lines());
    assertEquals(tab("ok", knob, knob), withState.lines().get(0), withState.stderr());
    assertFalse(withoutState.lines().get(0).startsWith("ok"), withoutState.lines().toString());
    assertEquals(
        tab("no", knob, "refused: resolves to " + knob + ", outside /sys, /proc/sys and /proc/fs"),
        withoutState.lines().get(0));
  }
}
