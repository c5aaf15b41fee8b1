package io.tunelab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Compares output with a file under src/test/resources/{report,compare,export} exactly; with {@code
 * -Dtunelab.updateGolden=true} rewrites the file instead (inspect the diff by hand).
 */
public final class GoldenFiles {
  private static final Path ROOT = Path.of("src", "test", "resources");

  private GoldenFiles() {}

  /** Compares with {@code report/NAME}. */
  static void assertMatches(String name, String actual) throws IOException {
    assertMatches("report", name, actual);
  }

  /** Compares with {@code DIR/NAME}. */
  public static void assertMatches(String dir, String name, String actual) throws IOException {
    Path file = ROOT.resolve(dir).resolve(name);
    if (Boolean.getBoolean("tunelab.updateGolden")) {
      Files.createDirectories(file.getParent());
      Files.writeString(file, actual);
    }
    assertEquals(Files.readString(file), actual, "golden file " + file);
  }
}
