package io.tunelab.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Compares output with a golden file exactly; with {@code -Dtunelab.updateGolden=true} the file is
 * rewritten first (then read the diff by hand before committing).
 */
public final class GoldenFiles {
  private GoldenFiles() {}

  /** Compares {@code actual} with {@code orchestrator/src/test/resources/RESOURCE}. */
  public static void assertMatches(String resource, String actual) {
    Path file = RepoFiles.testResources(resource);
    assertEquals(expected(file, actual), actual, "output differs from golden file " + file);
  }

  /** The golden text of {@code golden}, rewritten from {@code actual} first when asked to. */
  public static String expected(Path golden, String actual) {
    if (Boolean.getBoolean("tunelab.updateGolden")) {
      try {
        Files.createDirectories(golden.getParent());
        Files.writeString(golden, actual, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    if (!Files.exists(golden)) {
      throw new AssertionError(
          golden + " is missing; run with -Dtunelab.updateGolden=true to create it");
    }
    return RepoFiles.read(golden);
  }
}
