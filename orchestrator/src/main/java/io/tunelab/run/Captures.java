package io.tunelab.run;

import java.util.List;
import java.util.Optional;

/**
 * What a step's standard output gives a {@code capture}: the basename of its last line, or of every
 * non-empty line for a list. Captured values go into shell commands and paths, so each must be one
 * safe word.
 */
final class Captures {
  private Captures() {}

  /**
   * The lines a capture reads: the last one (or an empty one), or for a list every non-empty one.
   */
  static List<String> lines(List<String> stdout, boolean list) {
    if (list) {
      return stdout.stream().filter(l -> !l.isBlank()).toList();
    }
    return List.of(stdout.isEmpty() ? "" : stdout.get(stdout.size() - 1));
  }

  /** What follows the last {@code /} of a trimmed line, trailing slashes aside. */
  static String basename(String line) {
    String p = line.trim();
    while (p.length() > 1 && p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    return p.substring(p.lastIndexOf('/') + 1);
  }

  /**
   * Why {@code value} is no safe word: it must be letters, digits and {@code . _ : + -}, not only
   * dots (a path step such as {@code ..}) and not start with {@code -} (an option to the command
   * that gets it).
   */
  static Optional<String> problem(String value) {
    if (!value.matches("[A-Za-z0-9._:+-]+")) {
      return Optional.of("letters, digits and . _ : + - only");
    }
    if (value.matches("\\.+")) {
      return Optional.of("not only dots, which step through directories");
    }
    if (value.startsWith("-")) {
      return Optional.of("not starting with -, which a command reads as an option");
    }
    return Optional.empty();
  }
}
