package io.tunelab.agents;

import static org.junit.jupiter.api.Assertions.fail;

import io.tunelab.agents.AgentHarness.Result;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Calls the assembled agent's functions one by one under one shell: a driver script sources the
 * agent in its library mode ({@code set -- __library; . tunelab-agent.sh}, which defines every
 * function and runs no verb), then runs a test's shell code with the test's arguments as "$@".
 */
final class AgentLibrary {

  private final Path shell;
  private final Path dir;
  private final Path script;
  private final Map<String, String> env = new HashMap<>();

  AgentLibrary(String shellName, Path dir) {
    this.shell = Tools.require(shellName);
    this.dir = dir;
    this.script = dir.resolve(AgentScript.load().fileName());
    try {
      Files.write(script, AgentScript.load().bytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // As the tests' agents have it: the knob-root hook is honoured only with TUNELAB_STATE.
    env.put("TUNELAB_STATE", dir.resolve("state").toString());
  }

  /** Sets (or, with null, removes) one environment variable of every call from now. */
  AgentLibrary env(String key, String value) {
    if (value == null) {
      env.remove(key);
    } else {
      env.put(key, value);
    }
    return this;
  }

  /** Runs {@code body} (shell code) after the agent is sourced, in the test's directory. */
  Result run(String body, String... args) {
    try {
      Path driver = Files.createTempFile(dir, "driver", ".sh");
      Files.writeString(driver, ". '" + script + "'\nshift\n" + body + "\n");
      List<String> command = new ArrayList<>(List.of(shell.toString(), driver.toString()));
      command.add("__library");
      command.addAll(List.of(args));
      Path out = Files.createTempFile(dir, "out", ".txt");
      Path err = Files.createTempFile(dir, "err", ".txt");
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
              .redirectOutput(out.toFile())
              .redirectError(err.toFile());
      builder.environment().keySet().removeIf(key -> key.startsWith("TUNELAB_"));
      builder.environment().putAll(env);
      Process process = builder.start();
      if (!process.waitFor(AgentHarness.TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        fail("the agent's functions did not return; stderr: " + AgentHarness.read(err));
      }
      String stdout = AgentHarness.read(out);
      List<String> lines =
          stdout.isEmpty() ? List.of() : List.of(stdout.replaceFirst("\n$", "").split("\n", -1));
      return new Result(process.exitValue(), lines, AgentHarness.read(err), process.pid(), null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
