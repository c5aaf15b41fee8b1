package io.tunelab.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.agents.AgentHarness.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code noise}: the figures a host is judged by before a run, and the daemons that run there. */
class NoiseTest {

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void namesTheFiguresAndARunningBpftune(String shell, @TempDir Path dir) throws Exception {
    // A harmless process the kernel calls bpftune: a copy of sleep by that name.
    Path bpftune = dir.resolve("bpftune");
    Files.copy(Path.of("/bin/sleep"), bpftune);
    bpftune.toFile().setExecutable(true);
    Process daemon = new ProcessBuilder(bpftune.toString(), "300").start();
    try {
      Result noise = new AgentHarness(shell, dir).call("noise");

      assertEquals(0, noise.rc(), noise.stderr());
      assertTrue(noise.value("cpus").orElseThrow().matches("[0-9]+"), noise.lines().toString());
      assertTrue(noise.value("loadavg").orElseThrow().matches("[0-9.]+"));
      for (String kb : List.of("swap_kb", "dirty_kb", "writeback_kb")) {
        assertTrue(noise.value(kb).orElseThrow().matches("[0-9]+"), kb);
      }
      assertTrue(
          noise.rest("daemon").contains("bpftune\t" + daemon.pid()),
          noise.rest("daemon").toString());
    } finally {
      daemon.destroy();
      daemon.waitFor(Tools.millis(10_000), TimeUnit.MILLISECONDS);
    }
  }
}
