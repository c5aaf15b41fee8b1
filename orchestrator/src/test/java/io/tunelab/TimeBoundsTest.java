package io.tunelab;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tunelab.testing.RepoFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The tests' own rule (docs/architecture.md): every time bound goes through the one factor ({@code
 * TestTime} here, {@code Tools.millis} in the agents' tests), so that a slow machine raises the
 * factor instead of a test failing; a wait written as a literal number of a time unit is refused.
 */
class TimeBoundsTest {
  private static final Pattern LITERAL =
      Pattern.compile(
          "\\b(waitFor|get|await|poll|join|tryAcquire|offer)\\(\\s*\\d+L?\\s*,\\s*(TimeUnit\\.)?"
              + "(NANOSECONDS|MICROSECONDS|MILLISECONDS|SECONDS|MINUTES|HOURS)\\)"
              + "|\\b(SECONDS|MINUTES|HOURS)\\.to(Nanos|Millis)\\(\\s*\\d+L?\\s*\\)");

  @Test
  void noTestWaitsForALiteralTime() throws Exception {
    List<String> found = new ArrayList<>();
    for (String tree : List.of("orchestrator/src/test/java", "agents/src/test/java")) {
      try (Stream<Path> files = Files.walk(RepoFiles.repoRoot().resolve(tree))) {
        for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
          List<String> lines = Files.readAllLines(f);
          for (int i = 0; i < lines.size(); i++) {
            Matcher m = LITERAL.matcher(lines.get(i));
            if (m.find()) {
              found.add(RepoFiles.repoRoot().relativize(f) + ":" + (i + 1) + ": " + m.group());
            }
          }
        }
      }
    }
    assertEquals(List.of(), found, "give these bounds through TestTime or Tools.millis");
  }
}
