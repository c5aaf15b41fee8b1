package io.tunelab.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent must stay plain POSIX sh: shellcheck in sh mode finds nothing, not even info. */
class ShellcheckTest {

  @Test
  void shellcheckFindsNothing(@TempDir Path dir) throws IOException, InterruptedException {
    Path shellcheck = Tools.require("shellcheck");
    Path script = Files.write(dir.resolve("tunelab-agent.sh"), AgentScript.load().bytes());

    Process process =
        new ProcessBuilder(shellcheck.toString(), "-s", "sh", script.toString())
            .redirectErrorStream(true)
            .start();
    String findings = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "shellcheck hung");

    assertEquals("", findings);
    assertEquals(0, process.exitValue());
  }
}
