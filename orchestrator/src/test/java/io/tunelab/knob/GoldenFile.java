package io.tunelab.knob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Compares text with a golden file under {@code src/test/resources}; with {@code
 * -Dtunelab.updateGolden=true} rewrites the file instead (then read the diff by hand).
 */
public final class GoldenFile {
  private GoldenFile() {}

  public static void assertMatches(String resource, String actual) {
    Path file = Path.of("src", "test", "resources").resolve(resource);
    try {
      if (Boolean.getBoolean("tunelab.updateGolden")) {
        Files.createDirectories(file.getParent());
        Files.writeString(file, actual);
        return;
      }
      if (!Files.exists(file)) {
        fail("no golden file " + file + "; run with -Dtunelab.updateGolden=true and inspect it");
      }
      assertEquals(Files.readString(file), actual, "output differs from golden file " + file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
