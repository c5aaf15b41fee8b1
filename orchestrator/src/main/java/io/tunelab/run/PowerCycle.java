package io.tunelab.run;

import io.tunelab.remote.ControllerSecrets;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs an inventory's {@code power_cycle} command on the controller. */
final class PowerCycle {
  /**
   * How long the command may run: a BMC can take minutes to answer, and a command may wait for the
   * host itself (the VM lab's does).
   */
  static final Duration LIMIT = Duration.ofMinutes(15);

  private PowerCycle() {}

  /**
   * Runs {@code command} with {@code sh -c}, the host's name in {@code TUNELAB_HOST} and without
   * the controller's secrets ({@link ControllerSecrets}); returns null when it exited 0 within
   * {@link #LIMIT}, else what went wrong with its last line of output.
   */
  static String run(String command, String host) {
    Duration limit = LIMIT;
    ProcessBuilder pb = new ProcessBuilder("sh", "-c", command).redirectErrorStream(true);
    ControllerSecrets.removeFrom(pb.environment(), List.of());
    pb.environment().put("TUNELAB_HOST", host);
    pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    Process p;
    try {
      p = pb.start();
    } catch (IOException e) {
      return "cannot start sh: " + e.getMessage();
    }
    StringBuilder output = new StringBuilder();
    Thread reader =
        new Thread(
            () -> {
              try {
                output.append(
                    new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
              } catch (IOException e) {
                // the process is gone; what was read is kept
              }
            },
            "tunelab-power-cycle");
    reader.setDaemon(true);
    reader.start();
    try {
      if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        return "'" + command + "' did not end within " + limit.toSeconds() + " s";
      }
      reader.join(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
      return "interrupted";
    }
    if (p.exitValue() == 0) {
      return null;
    }
    String text = output.toString().strip();
    String last = text.isEmpty() ? "" : ": " + text.substring(text.lastIndexOf('\n') + 1);
    return "'" + command + "' exited " + p.exitValue() + last;
  }
}
