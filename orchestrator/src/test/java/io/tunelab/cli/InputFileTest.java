package io.tunelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tunelab.testing.Cli;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A matrix or inventory that cannot be read says why, at once, with exit 2. */
class InputFileTest {
  @TempDir Path dir;

  private static void refused(String expected, String... args) {
    Cli.Result r = Cli.tunelab(args);
    assertEquals(2, r.code(), r.all());
    assertEquals(expected + "\n", r.err());
  }

  @Test
  void aMissingMatrixSaysNoSuchFile() {
    Path m = dir.resolve("12-missing.yaml");
    refused("tunelab: " + m + ": cannot read the matrix: no such file", "plan", m.toString());
  }

  @Test
  void aDeviceIsRefusedAtOnceInsteadOfReadUntilTheHeapRunsOut() {
    refused("tunelab: /dev/zero: cannot read the matrix: not a regular file", "plan", "/dev/zero");
  }

  @Test
  void aDirectoryIsNoMatrix() {
    refused("tunelab: " + dir + ": cannot read the matrix: a directory", "plan", dir.toString());
  }

  @Test
  void bytesThatAreNotUtf8AreNamedByLineAndColumnAsEveryMatrixProblemIs() throws IOException {
    Path m = dir.resolve("latin1.yaml");
    Files.write(m, "name: x\n# caf\u00e9\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    refused(
        m
            + ":2:6: cannot read the matrix: not UTF-8 at line 2 (byte 0xe9): save the file as"
            + " UTF-8",
        "plan",
        m.toString());
  }

  @Test
  void aFileThePermissionsRefuseSaysPermissionDenied() {
    // Root reads every file whatever its mode, so the refusal is checked where it is named.
    assertEquals("permission denied", InputFile.reason(new AccessDeniedException("/m.yaml")));
    assertEquals("no such file", InputFile.reason(new NoSuchFileException("/m.yaml")));
  }
}
