package io.tunelab.agents;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/** Finds the external programs the agent tests need: missing ones skip locally, fail on CI. */
final class Tools {

  /**
   * The factor every behavioural time bound is multiplied by, the one the orchestrator's tests use:
   * {@code TUNELAB_TEST_TIME_FACTOR} or {@code -Dtunelab.test.time.factor}, default 1.
   */
  static final double TIME_FACTOR = timeFactor();

  private Tools() {}

  /** {@code millis} times the time factor. */
  static long millis(long millis) {
    return (long) (millis * TIME_FACTOR);
  }

  private static double timeFactor() {
    String text = System.getProperty("tunelab.test.time.factor");
    if (text == null || text.isBlank()) {
      text = System.getenv("TUNELAB_TEST_TIME_FACTOR");
    }
    double f = text == null || text.isBlank() ? 1 : Double.parseDouble(text.trim());
    if (!(f >= 1 && f <= 1000)) {
      throw new IllegalArgumentException(
          "TUNELAB_TEST_TIME_FACTOR must be from 1 to 1000: " + text);
    }
    return f;
  }

  /** The absolute path of {@code name} on PATH, or the test is skipped (failed when CI=true). */
  static Path require(String name) {
    String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    for (String dir : path.split(File.pathSeparator)) {
      Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return candidate.toAbsolutePath();
      }
    }
    unavailable(
        name + " is not installed (not on PATH), so the agent cannot be checked with it",
        "; install it or set CI=true to make this a failure");
    throw new AssertionError("unreachable");
  }

  /**
   * Skips the test unless this process may write the kernel log ({@code write}) or read it (fails
   * instead when CI=true).
   */
  static void requireKernelLog(boolean write) {
    Path kmsg = Path.of("/dev/kmsg");
    if (write ? Files.isWritable(kmsg) : Files.isReadable(kmsg)) {
      return;
    }
    unavailable((write ? "writing" : "reading") + " the kernel log needs root", "");
  }

  /** Skips the test unless it runs as root (fails instead when CI=true). */
  static void requireRoot() {
    Object uid;
    try {
      uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    } catch (java.io.IOException e) {
      uid = -1;
    }
    if (Integer.valueOf(0).equals(uid)) {
      return;
    }
    unavailable("this test needs root (other owners, loop devices)", "");
  }

  /** Fails the test when CI=true, else skips it: {@code why}, then {@code hint} when skipped. */
  private static void unavailable(String why, String hint) {
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      fail(why + "; CI=true requires it");
    }
    Assumptions.abort(why + hint);
  }
}
