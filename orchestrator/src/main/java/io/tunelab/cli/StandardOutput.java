package io.tunelab.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What this process's standard output is connected to. */
final class StandardOutput {
  private StandardOutput() {}

  /**
   * Whether standard output is a pipe. A write to a pipe fails only when its reader has closed it,
   * so a failed write there is the end of the reader's interest; a file or a terminal that refuses
   * a write is a real error (a full disk).
   */
  static boolean isPipe() {
    try {
      return Files.readSymbolicLink(Path.of("/proc/self/fd/1")).toString().startsWith("pipe:");
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }
}
