package io.tunelab.it;

import io.tunelab.testing.Prerequisites;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;

/** What the end-to-end tests need from this machine, and a way to call the CLI in-process. */
final class Lab {
  private Lab() {}

  /** Root is required; under CI a missing requirement fails instead of skipping. */
  static void requireRoot() {
    Prerequisites.root("loop devices and sysfs writes");
  }

  /**
   * The commands must be installed (lab/deps installs them); under CI a missing one fails instead
   * of skipping.
   */
  static void requireCommands(String... names) {
    Prerequisites.commands("run lab/deps as root", names);
  }

  /** The lab's {@code lab/state/env} as names and values: disks, addresses, URLs (docs/lab.md). */
  static Map<String, String> env() throws IOException {
    return Files.readAllLines(root().resolve("lab/state/env")).stream()
        .filter(l -> l.contains("=") && !l.startsWith("#"))
        .collect(
            Collectors.toMap(
                l -> l.substring(0, l.indexOf('=')), l -> l.substring(l.indexOf('=') + 1)));
  }

  /** Starts the two-host lab ({@code lab/lab up}) and returns its env. */
  static Map<String, String> up() throws Exception {
    LoopDisk.sh(root().resolve("lab/lab") + " up");
    return env();
  }

  /** Stops the lab ({@code lab/lab down --force}) when {@code env} says it was started. */
  static void down(Map<String, String> env) throws Exception {
    if (env != null) {
      LoopDisk.sh(root().resolve("lab/lab") + " down --force");
    }
  }

  /** The repository root (surefire sets TUNELAB_ROOT). */
  static Path root() {
    String env = System.getenv("TUNELAB_ROOT");
    Path p = env != null ? Path.of(env) : Path.of("").toAbsolutePath().getParent();
    return p.toAbsolutePath();
  }
}
