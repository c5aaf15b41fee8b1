package io.tunelab.remote;

/** Quoting for POSIX shells, so a command survives being passed through another shell. */
final class ShellQuote {
  private ShellQuote() {}

  /** {@code text} as one single-quoted shell word. */
  static String quote(String text) {
    return "'" + text.replace("'", "'\\''") + "'";
  }

  /**
   * {@code command} run by {@code sh -c}: over SSH the remote login shell parses the line first,
   * and that shell may be bash, zsh or fish; this keeps the command's meaning POSIX sh's.
   */
  static String shC(String command) {
    return "sh -c " + quote(command);
  }
}
