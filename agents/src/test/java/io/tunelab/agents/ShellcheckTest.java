package io.tunelab.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The agent must stay plain POSIX sh: shellcheck in sh mode finds nothing, not even info, in the
 * packaged script and in each of its modules alone (with the modules' {@code .shellcheckrc}).
 */
class ShellcheckTest {

  @Test
  void shellcheckFindsNothing(@TempDir Path dir) throws IOException, InterruptedException {
    Path script = Files.write(dir.resolve("tunelab-agent.sh"), AgentScript.load().bytes());

    assertClean(script);
  }

  static Stream<String> modules() throws IOException {
    return AgentAssemblyTest.modules().keySet().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("modules")
  void shellcheckFindsNothingInAModuleAlone(String module)
      throws IOException, InterruptedException {
    assertClean(AgentAssemblyTest.SOURCES.resolve(module));
  }

  private static void assertClean(Path script) throws IOException, InterruptedException {
    Path shellcheck = Tools.require("shellcheck");
    Process process =
        new ProcessBuilder(shellcheck.toString(), "-s", "sh", script.toString())
            .redirectErrorStream(true)
            .start();
    String findings = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(Tools.millis(60000), TimeUnit.MILLISECONDS), "shellcheck hung");

    assertEquals("", findings);
    assertEquals(0, process.exitValue());
  }
}
