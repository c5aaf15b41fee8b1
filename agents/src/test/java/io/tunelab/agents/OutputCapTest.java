package io.tunelab.agents;

import static io.tunelab.agents.AgentHarness.tab;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.agents.AgentHarness.Result;
import io.tunelab.agents.AgentHarness.Server;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A workload prints as much as it likes; the agent keeps a bounded part of it (docs/agent.md,
 * "Output caps"): a line is cut at 64 KiB and marked, a stream stops being kept at 4 MiB with a
 * last line saying so, the workload runs to its end, and the state directory does not fill.
 */
class OutputCapTest {

  private static final int LINE_CAP = 65536;
  private static final int STREAM_CAP = 4 << 20;

  private static String[] job(String command, String... extra) {
    return Stream.concat(
            Stream.of(
                tab("job", "chatty"), tab("arg", "sh"), tab("arg", "-c"), tab("arg", command)),
            Stream.of(extra))
        .toArray(String[]::new);
  }

  private static List<String> out(Result r) {
    return r.rest("out").stream().map(l -> l.substring("chatty\t".length())).toList();
  }

  /** Bytes of every regular file under {@code dir}. */
  private static long bytesUnder(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(Files::isRegularFile)
          .mapToLong(
              p -> {
                try {
                  return Files.size(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              })
          .sum();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void a300MegabyteLineIsCutAndMarkedAndTheStateDirStaysSmall(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);
    try (Server server = agent.serve()) {
      Result run =
          server.request("run", job("head -c 300000000 /dev/zero | tr '\\0' a; echo; echo after"));

      assertEquals(0, run.rc(), run.stderr());
      assertEquals(
          List.of("a".repeat(LINE_CAP) + " [tunelab: line cut at 65536 bytes]", "after"), out(run));
      // the serve keeps its jobs/ for the next trial, with what the workload printed
      long kept = bytesUnder(agent.state().resolve("jobs"));
      assertTrue(kept < 2 * LINE_CAP, "jobs/ holds " + kept + " bytes");
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aStreamStopsBeingKeptAtItsCapWithALineSayingSo(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);
    // 769,230 lines of 13 bytes: 4 MiB keep 322,638 of them
    int kept = STREAM_CAP / 13;
    try (Server server = agent.serve()) {
      Result run =
          server.request(
              "run",
              job(
                  "awk 'BEGIN { for (i = 0; i < 769230; i++) print \"line of text\" }' && echo done >&2",
                  tab("stdout", "all")));

      assertEquals(0, run.rc(), run.stderr());
      List<String> out = out(run);
      assertEquals(
          "[tunelab: output cut at 4194304 bytes: the rest was not kept]", out.get(out.size() - 1));
      assertEquals(100_000 + 1, out.size(), "the relay's 100,000 lines, then the mark");
      assertEquals("line of text", out.get(out.size() - 2));
      // the relay's own cap (100,000 lines) comes after the keeper's
      assertEquals(List.of("chatty\t" + (kept - 100_000)), run.rest("cut"));
      assertEquals(List.of("chatty\tdone"), run.rest("err"));
      long bytes = bytesUnder(agent.state().resolve("jobs"));
      assertTrue(bytes < STREAM_CAP + 4096, "jobs/ holds " + bytes + " bytes");
    }
  }
}
