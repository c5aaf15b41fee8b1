package io.tunelab.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * What a test needs from the machine (root, programs on PATH). A missing one skips the test, as the
 * report's "Skipped" count shows; with {@code CI=true} it fails instead, so that CI never passes
 * with tests it did not run.
 */
public final class Prerequisites {
  private Prerequisites() {}

  /** Skips (fails when CI=true) unless this JVM runs as root. */
  public static void root(String why) {
    boolean root;
    try {
      root =
          Files.readString(Path.of("/proc/self/status"))
              .lines()
              .anyMatch(l -> l.matches("Uid:\\s+0\\s.*"));
    } catch (IOException e) {
      root = false;
    }
    require(root, "needs root: " + why);
  }

  /** Skips (fails when CI=true) unless every program is on PATH or in /usr/sbin or /sbin. */
  public static void commands(String hint, String... names) {
    String path = System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin";
    List<String> missing = new ArrayList<>();
    for (String name : names) {
      boolean found = false;
      for (String dir : path.split(File.pathSeparator)) {
        found |= !dir.isEmpty() && Files.isExecutable(Path.of(dir, name));
      }
      if (!found) {
        missing.add(name);
      }
    }
    require(missing.isEmpty(), "missing " + missing + ": " + hint);
  }

  /** Skips with {@code why} unless {@code met}; fails instead when CI=true. */
  public static void require(boolean met, String why) {
    if (met) {
      return;
    }
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      fail(why + " (CI=true: a missing prerequisite fails, it does not skip)");
    }
    Assumptions.abort(why);
  }
}
