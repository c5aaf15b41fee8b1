package io.tunelab.matrix;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** Finds the repository and golden files; compares golden text or rewrites it on request. */
final class TestFiles {
  private TestFiles() {}

  /** The repository root: {@code TUNELAB_ROOT} (set by surefire) or the nearest parent pom. */
  static Path repoRoot() {
    String env = System.getenv("TUNELAB_ROOT");
    if (env != null && !env.isBlank() && Files.isDirectory(Paths.get(env, "orchestrator"))) {
      return Paths.get(env).toAbsolutePath();
    }
    for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
      Path pom = p.resolve("pom.xml");
      if (Files.isRegularFile(pom) && read(pom).contains("<modules>")) {
        return p;
      }
    }
    throw new IllegalStateException("cannot find the repository root (no parent pom.xml)");
  }

  static Path matrixResources() {
    return repoRoot().resolve("orchestrator/src/test/resources/matrix");
  }

  static String read(Path p) {
    try {
      return Files.readString(p, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static boolean updateGolden() {
    return Boolean.getBoolean("tunelab.updateGolden");
  }

  /**
   * The golden text of {@code golden}; with {@code -Dtunelab.updateGolden=true} it is first
   * rewritten from {@code actual} (inspect the diff by hand before committing).
   */
  static String golden(Path golden, String actual) {
    if (updateGolden()) {
      try {
        Files.writeString(golden, actual, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    if (!Files.exists(golden)) {
      throw new AssertionError(
          golden + " is missing; run with -Dtunelab.updateGolden=true to create it");
    }
    return read(golden);
  }
}
