package io.tunelab.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.TestTime;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** tunelab as a JVM of its own started in a directory, as a user types it there. */
final class InDirectory {
  private InDirectory() {}

  /** The exit code and both output streams together. */
  record Result(int code, String out) {}

  /**
   * {@code tunelab ARGS…} in {@code dir}; the agent's state and installed copy in {@code aside}.
   */
  static Result tunelab(Path dir, Path aside, String... args) throws Exception {
    List<String> argv = new ArrayList<>();
    argv.add(ProcessHandle.current().info().command().orElse("java"));
    argv.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
    argv.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile()).redirectErrorStream(true);
    pb.environment().put("TUNELAB_STATE", aside.resolve("state").toString());
    pb.environment().put("XDG_CACHE_HOME", aside.resolve("cache").toString());
    pb.environment().remove("TUNELAB_DB");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes());
    assertTrue(p.waitFor(TestTime.seconds(120), TimeUnit.SECONDS), out);
    return new Result(p.exitValue(), out);
  }
}
