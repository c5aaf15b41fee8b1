package io.tunelab.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tunelab.testing.RepoFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The workload package reads output it is handed: no files, command line, SSH or database (the same
 * rule as {@code PurityTest}, until the integrator adds {@code workload} to its list).
 */
class WorkloadPurityTest {
  private static final List<String> FORBIDDEN =
      List.of(
          "import java.io.File",
          "import java.nio.file",
          "import picocli",
          "import java.sql",
          "import org.apache.sshd",
          "import io.tunelab.remote");

  @Test
  void workloadSourcesImportNoIo() throws IOException {
    Path dir = RepoFiles.repoRoot().resolve("orchestrator/src/main/java/io/tunelab/workload");
    List<String> offenders = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : s.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
        String text = RepoFiles.read(p);
        FORBIDDEN.stream()
            .filter(text::contains)
            .forEach(f -> offenders.add(p.getFileName() + ": " + f));
      }
    }
    assertEquals(List.of(), offenders);
  }
}
