package io.tunelab.agents;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/** Finds the external programs the agent tests need: missing ones skip locally, fail on CI. */
final class Tools {

  private Tools() {}

  /** The absolute path of {@code name} on PATH, or the test is skipped (failed when CI=true). */
  static Path require(String name) {
    String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    for (String dir : path.split(File.pathSeparator)) {
      Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return candidate.toAbsolutePath();
      }
    }
    String why = name + " is not installed (not on PATH), so the agent cannot be checked with it";
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      fail(why + "; CI=true requires it");
    }
    Assumptions.abort(why + "; install it or set CI=true to make this a failure");
    throw new AssertionError("unreachable");
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
    String why = "this test needs root (other owners, loop devices)";
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      fail(why + "; CI=true requires it");
    }
    Assumptions.abort(why);
  }
}
