package io.tunelab.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** Finds the repository and its files from a test. */
public final class RepoFiles {
  private RepoFiles() {}

  /** The repository root: {@code TUNELAB_ROOT} (set by surefire) or the nearest parent pom. */
  public static Path repoRoot() {
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

  /** A directory of test resources, e.g. {@code matrix}. */
  public static Path testResources(String name) {
    return repoRoot().resolve("orchestrator/src/test/resources").resolve(name);
  }

  public static String read(Path p) {
    try {
      return Files.readString(p, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
