package io.tunelab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.RepoFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No method or constructor in {@code run} is over 100 lines, so each step of a run reads in one
 * sitting. Scans the sources as google-java-format lays them out: a declaration's body ends at the
 * first closing brace on the declaration's own indent.
 */
class MethodLengthTest {
  private static final int MAX_LINES = 100;

  private static final Pattern DECLARATION =
      Pattern.compile(
          "^( +)(?:(?:public|protected|private|static|final|abstract|synchronized|default)\\s+)*"
              + "(?:<[^>]+>\\s+)?(?:([\\w.]+(?:<.*>)?(?:\\[\\])*)\\s+)?(\\w+)\\(");

  private static final Set<String> NOT_TYPES =
      Set.of("return", "new", "throw", "else", "case", "yield", "assert");

  private static final Set<String> STATEMENTS =
      Set.of("if", "for", "while", "switch", "try", "catch", "synchronized", "do", "return");

  @Test
  void noMethodInRunIsOverAHundredLines() throws IOException {
    Path run = RepoFiles.repoRoot().resolve("orchestrator/src/main/java/io/tunelab/run");
    List<String> long_ = new ArrayList<>();
    try (Stream<Path> files = Files.list(run)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
        long_.addAll(longMethods(f.getFileName().toString(), Files.readAllLines(f)));
      }
    }
    assertEquals(List.of(), long_);
  }

  /** The scan finds a long method: a check that cannot fail checks nothing. */
  @Test
  void theScanSeesALongMethod() {
    List<String> lines = new ArrayList<>();
    lines.add("final class Long {");
    lines.add("  private static int count(");
    lines.add("      int a) {");
    for (int i = 0; i < MAX_LINES; i++) {
      lines.add("    a++;");
    }
    lines.add("    return a;");
    lines.add("  }");
    lines.add("  Long() {}");
    lines.add("}");
    List<String> found = longMethods("Long.java", lines);
    assertEquals(1, found.size(), found.toString());
    assertTrue(found.get(0).startsWith("Long.java:2 count: 104 lines"), found.get(0));
  }

  private static List<String> longMethods(String file, List<String> lines) {
    List<String> found = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      Matcher m = DECLARATION.matcher(lines.get(i));
      if (!m.find() || !isDeclaration(m)) {
        continue;
      }
      int open = i;
      while (open < lines.size() && !lines.get(open).stripTrailing().endsWith("{")) {
        if (lines.get(open).stripTrailing().endsWith(";")) {
          open = -1;
          break;
        }
        open++;
      }
      if (open < 0 || open >= lines.size() || lines.get(open).stripTrailing().endsWith("{}")) {
        continue;
      }
      String close = m.group(1) + "}";
      int end = open + 1;
      while (end < lines.size() && !lines.get(end).equals(close)) {
        end++;
      }
      int length = end - i + 1;
      if (length > MAX_LINES) {
        found.add(file + ":" + (i + 1) + " " + m.group(3) + ": " + length + " lines");
      }
    }
    return found;
  }

  private static boolean isDeclaration(Matcher m) {
    String type = m.group(2);
    String name = m.group(3);
    if (STATEMENTS.contains(name)) {
      return false;
    }
    if (type == null) {
      // A constructor: a class's name; anything else at the start of a line is a call.
      return Character.isUpperCase(name.charAt(0));
    }
    return !NOT_TYPES.contains(type);
  }
}
