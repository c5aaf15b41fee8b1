package io.tunelab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.tunelab.testing.RepoFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The pure packages stay pure: no files, command line, SSH or database in them. */
class PurityTest {
  private static final List<String> PURE =
      List.of(
          "matrix",
          "knob",
          "plan",
          "stats",
          "search",
          "report",
          "view",
          "inventory",
          "yaml",
          "workload",
          "store");
  private static final List<String> FORBIDDEN =
      List.of(
          "import java.io.File",
          "import java.nio.file",
          "import picocli",
          "import java.sql",
          "import org.apache.sshd",
          "import io.tunelab.store.sqlite",
          "import io.tunelab.remote");

  @Test
  void pureSourcesImportNoIo() throws IOException {
    Path base = RepoFiles.repoRoot().resolve("orchestrator/src/main/java/io/tunelab");
    List<String> offenders = new ArrayList<>();
    for (String pkg : PURE) {
      List<Path> sources;
      try (Stream<Path> s = Files.list(base.resolve(pkg))) {
        sources = s.filter(f -> f.toString().endsWith(".java")).toList();
      }
      assertFalse(sources.isEmpty(), pkg + " has no sources");
      for (Path p : sources) {
        String text = RepoFiles.read(p);
        for (String f : FORBIDDEN) {
          if (text.contains(f)) {
            offenders.add(pkg + "/" + p.getFileName() + ": " + f);
          }
        }
      }
    }
    assertEquals(List.of(), offenders);
  }
}
