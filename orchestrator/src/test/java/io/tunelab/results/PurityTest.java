package io.tunelab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The stats and report packages stay pure: no files, command line, SSH or database in them. */
class PurityTest {
  private static final List<String> FORBIDDEN =
      List.of(
          "import java.io.File",
          "import java.nio.file",
          "import picocli",
          "import java.sql",
          "import io.tunelab.store.Sqlite",
          "import io.tunelab.remote");

  @Test
  void statsAndReportImportNoIo() throws IOException {
    String root = System.getenv("TUNELAB_ROOT");
    Path base = Path.of(root == null ? ".." : root, "orchestrator/src/main/java/io/tunelab");
    List<String> offenders = new ArrayList<>();
    int files = 0;
    for (String pkg : List.of("stats", "report")) {
      try (Stream<Path> s = Files.list(base.resolve(pkg))) {
        for (Path p : s.filter(f -> f.toString().endsWith(".java")).toList()) {
          files++;
          String text = Files.readString(p);
          for (String f : FORBIDDEN) {
            if (text.contains(f)) {
              offenders.add(pkg + "/" + p.getFileName() + ": " + f);
            }
          }
        }
      }
    }
    assertFalse(files < 10, "found only " + files + " sources");
    assertEquals(List.of(), offenders);
  }
}
