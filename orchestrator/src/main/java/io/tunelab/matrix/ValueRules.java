package io.tunelab.matrix;

import io.tunelab.yaml.Problem;

/**
 * What a value may contain. Parameters are substituted into shell commands (setup, teardown, {@code
 * command} workloads), so they may not hold anything a shell treats specially. Knob values are
 * written to files, never through a shell, so they may hold spaces; but no value may span lines,
 * because the agent's protocol is one line per value.
 */
final class ValueRules {
  /** Characters a POSIX shell gives a meaning to, besides whitespace. */
  static final String SHELL_SPECIAL = "`$;&|<>()\\\"'*?[]{}~!#";

  private ValueRules() {}

  /** Why {@code value} cannot be a parameter value, or null when it can. */
  static String parameterProblem(String value) {
    if (value.isEmpty()) {
      return "a parameter value may not be empty";
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      String what = null;
      if (c == '\n' || c == '\r') {
        what = "a newline";
      } else if (Character.isWhitespace(c) || Character.isSpaceChar(c)) {
        what = "whitespace";
      } else if (Character.isISOControl(c)) {
        what = "a control character";
      } else if (SHELL_SPECIAL.indexOf(c) >= 0) {
        what = "'" + c + "'";
      }
      if (what != null) {
        return "value '"
            + Problem.printable(value)
            + "' contains "
            + what
            + ": parameters are substituted into shell commands, so they may not contain"
            + " whitespace or any of "
            + SHELL_SPECIAL;
      }
    }
    return null;
  }

  /** Why {@code value} cannot be written to a knob, or null when it can. */
  static String knobValueProblem(String value) {
    if (value.isEmpty()) {
      return "a knob value may not be empty (write 'default' for the host's original value)";
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\n' || c == '\r') {
        return "value '" + Problem.printable(value) + "' contains a newline";
      }
      if (Character.isISOControl(c) && c != '\t') {
        return "value '" + Problem.printable(value) + "' contains a control character";
      }
    }
    return null;
  }

  /** Why a shell command template cannot be used, or null; a trailing newline was dropped. */
  static String commandProblem(String command) {
    if (command.isBlank()) {
      return "the command is empty";
    }
    if (command.indexOf('\n') >= 0 || command.indexOf('\r') >= 0) {
      return "the command spans lines: join them with ';' or '&&', or put them in a script";
    }
    return null;
  }

  /**
   * The command with the trailing newlines of a YAML block scalar ({@code |}, {@code >}) dropped.
   */
  static String stripTrailingNewlines(String command) {
    int end = command.length();
    while (end > 0 && (command.charAt(end - 1) == '\n' || command.charAt(end - 1) == '\r')) {
      end--;
    }
    return command.substring(0, end);
  }
}
