package io.tunelab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Compares output with a file under src/test/resources/report exactly; with {@code
 * -Dtunelab.updateGolden=true} rewrites the file instead (inspect the diff by hand).
 */
final class GoldenFiles {
  private static final Path DIR = Path.of("src", "test", "resources", "report");

  private GoldenFiles() {}

  static void assertMatches(String name, String actual) throws IOException {
    Path file = DIR.resolve(name);
    if (Boolean.getBoolean("tunelab.updateGolden")) {
      Files.createDirectories(DIR);
      Files.writeString(file, actual);
    }
    assertEquals(Files.readString(file), actual, "golden file " + file);
  }
}
