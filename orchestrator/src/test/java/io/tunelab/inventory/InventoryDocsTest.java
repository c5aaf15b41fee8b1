package io.tunelab.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.RepoFiles;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every {@code ```yaml} block of docs/hosts.md loads; every {@code ```yaml bad} block fails with
 * exactly the message in the {@code ```text} block right after it.
 */
class InventoryDocsTest {
  private static final String FILE = "hosts.yaml";

  /** A fenced block of the page. */
  record Block(String info, String text, int line) {}

  @TestFactory
  Stream<DynamicTest> everyYamlExampleLoadsOrFailsAsShown() {
    List<Block> blocks = blocks(RepoFiles.read(RepoFiles.repoRoot().resolve("docs/hosts.md")));
    List<DynamicTest> tests = new ArrayList<>();
    for (int i = 0; i < blocks.size(); i++) {
      Block b = blocks.get(i);
      String name = "docs/hosts.md line " + b.line();
      if (b.info().equals("yaml")) {
        tests.add(
            DynamicTest.dynamicTest(
                name,
                () ->
                    assertFalse(Inventory.load(FILE, b.text(), "/home/me/lab").names().isEmpty())));
      } else if (b.info().equals("yaml bad")) {
        Block shown = i + 1 < blocks.size() ? blocks.get(i + 1) : null;
        tests.add(
            DynamicTest.dynamicTest(
                name,
                () -> {
                  assertTrue(
                      shown != null && shown.info().equals("text"),
                      "a bad example must be followed by a ```text block with its message");
                  InventoryException e =
                      assertThrows(
                          InventoryException.class,
                          () -> Inventory.load(FILE, b.text(), "/home/me/lab"));
                  assertEquals(shown.text().strip(), e.getMessage());
                }));
      }
    }
    assertTrue(tests.size() >= 5, "expected the page's examples, found " + tests.size());
    return tests.stream();
  }

  static List<Block> blocks(String page) {
    List<Block> blocks = new ArrayList<>();
    String[] lines = page.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].startsWith("```") && lines[i].length() > 3) {
        int start = i;
        StringBuilder text = new StringBuilder();
        for (i++; i < lines.length && !lines[i].equals("```"); i++) {
          text.append(lines[i]).append('\n');
        }
        blocks.add(new Block(lines[start].substring(3).strip(), text.toString(), start + 1));
      }
    }
    return blocks;
  }
}
