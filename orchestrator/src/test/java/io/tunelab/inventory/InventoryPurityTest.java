package io.tunelab.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The inventory package stays pure: it reads text, never files, SSH or a database. */
class InventoryPurityTest {
  private static final List<String> FORBIDDEN =
      List.of(
          "import java.io.File",
          "import java.nio.file",
          "import picocli",
          "import java.sql",
          "import org.apache.sshd");

  @Test
  void mainSourcesImportNoIo() throws IOException {
    Path dir = InventoryFiles.repoRoot().resolve("orchestrator/src/main/java/io/tunelab/inventory");
    List<Path> sources;
    try (Stream<Path> s = Files.list(dir)) {
      sources = s.filter(p -> p.toString().endsWith(".java")).collect(Collectors.toList());
    }
    assertFalse(sources.isEmpty());
    List<String> offenders =
        sources.stream()
            .filter(p -> FORBIDDEN.stream().anyMatch(InventoryFiles.read(p)::contains))
            .map(p -> p.getFileName().toString())
            .collect(Collectors.toList());
    assertEquals(List.of(), offenders);
  }
}
