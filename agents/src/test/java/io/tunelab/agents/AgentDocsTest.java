package io.tunelab.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/agent.md's table of modules is the build's list (agents/pom.xml), in the build's order: a
 * module added, removed or moved without the page is a failure, not a page that drifted.
 */
class AgentDocsTest {
  private static final Pattern BUILT = Pattern.compile("<file name=\"([\\w.-]+\\.sh)\"/>");
  private static final Pattern ROW = Pattern.compile("(?m)^\\| `([\\w.-]+\\.sh)` \\|");

  @Test
  void theModuleTableOfAgentMdIsTheBuildsListInItsOrder() throws IOException {
    assertEquals(
        matches(BUILT, Files.readString(Path.of("pom.xml"))),
        matches(ROW, Files.readString(Path.of("../docs/agent.md"))),
        "docs/agent.md's module table against agents/pom.xml's concat list");
  }

  private static List<String> matches(Pattern p, String text) {
    List<String> found = new ArrayList<>();
    Matcher m = p.matcher(text);
    while (m.find()) {
      found.add(m.group(1));
    }
    return found;
  }
}
