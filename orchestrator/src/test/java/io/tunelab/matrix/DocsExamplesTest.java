package io.tunelab.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.plan.Cell;
import io.tunelab.plan.MatrixExpander;
import io.tunelab.testing.RepoFiles;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every {@code ```yaml} block of docs/matrix.md, docs/workloads.md, docs/recipes.md, docs/lab.md
 * and docs/kernels.md loads; every {@code ```yaml bad} block fails with exactly the message in the
 * {@code ```text} block right after it. A {@code ```fio NAME} block is the job file {@code NAME}
 * for the page's examples. {@code --set NAME=VALUE} after {@code yaml} or {@code yaml bad} loads
 * the block with that override, as {@code tunelab run --set} would.
 */
class DocsExamplesTest {
  private static final String FILE = "matrix.yaml";

  /** A fenced block of the page. */
  record Block(String info, String text, int line) {}

  @TestFactory
  Stream<DynamicTest> everyYamlExampleLoadsOrFailsAsShown() {
    List<DynamicTest> tests = examples("docs/matrix.md");
    assertTrue(tests.size() >= 10, "expected the page's examples, found " + tests.size());
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> everyWorkloadsExampleLoadsOrFailsAsShown() {
    List<DynamicTest> tests = examples("docs/workloads.md");
    assertTrue(tests.size() >= 3, "expected the page's examples, found " + tests.size());
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> everyRecipeAndLabExampleLoads() {
    List<DynamicTest> tests = new ArrayList<>(examples("docs/recipes.md"));
    tests.addAll(examples("docs/lab.md"));
    tests.addAll(examples("docs/kernels.md"));
    assertTrue(tests.size() >= 6, "expected the pages' examples, found " + tests.size());
    return tests.stream();
  }

  private static List<DynamicTest> examples(String page) {
    List<Block> blocks = blocks(RepoFiles.read(RepoFiles.repoRoot().resolve(page)));
    JobFiles files = shownJobFiles(blocks);
    List<DynamicTest> tests = new ArrayList<>();
    for (int i = 0; i < blocks.size(); i++) {
      Block b = blocks.get(i);
      String name = page + " line " + b.line();
      Map<String, String> set = overrides(b.info());
      String kind = b.info().replaceAll("\\s*--set\\s+\\S+", "").strip();
      if (kind.equals("yaml")) {
        tests.add(
            DynamicTest.dynamicTest(
                name,
                () -> {
                  Matrix m = MatrixLoader.load(FILE, b.text(), files, set);
                  assertFalse(MatrixExpander.expand(m).isEmpty());
                }));
      } else if (kind.equals("yaml bad")) {
        Block shown = i + 1 < blocks.size() ? blocks.get(i + 1) : null;
        tests.add(
            DynamicTest.dynamicTest(
                name,
                () -> {
                  assertTrue(
                      shown != null && shown.info().equals("text"),
                      "a bad example must be followed by a ```text block with its message");
                  MatrixException e =
                      assertThrows(
                          MatrixException.class,
                          () -> MatrixLoader.load(FILE, b.text(), files, set));
                  assertEquals(shown.text().strip(), e.getMessage());
                }));
      }
    }
    return tests;
  }

  @Test
  void theDesignExampleIsOnThePageAndExpandsTo18Cells() {
    Block first =
        blocks(RepoFiles.read(RepoFiles.repoRoot().resolve("docs/matrix.md"))).stream()
            .filter(b -> b.info().equals("yaml"))
            .findFirst()
            .orElseThrow();
    Matrix m = MatrixLoader.load(FILE, first.text());
    assertEquals("loop-readahead", m.name());
    assertEquals(18, MatrixExpander.expand(m).size());
  }

  @Test
  void theExpansionOrderShownOnThePageIsTheRealOne() {
    Block cases =
        blocks(RepoFiles.read(RepoFiles.repoRoot().resolve("docs/matrix.md"))).stream()
            .filter(b -> b.text().startsWith("name: cases-example\n"))
            .findFirst()
            .orElseThrow();
    List<Cell> cells = MatrixExpander.expand(MatrixLoader.load(FILE, cases.text()));
    assertEquals(8, cells.size());
    assertEquals("dirty_ratio=10/bs=4K/profile=baseline", cells.get(0).label());
    assertEquals("dirty_ratio=10/bs=4K/profile=background-early", cells.get(1).label());
    assertEquals("dirty_ratio=10/bs=1M/profile=baseline", cells.get(2).label());
    assertEquals("dirty_ratio=40/bs=1M/profile=background-early", cells.get(7).label());
  }

  /** The {@code --set NAME=VALUE} of a block's info string, in order. */
  static Map<String, String> overrides(String info) {
    Map<String, String> set = new LinkedHashMap<>();
    String[] words = info.split("\\s+");
    for (int i = 0; i + 1 < words.length; i++) {
      if (words[i].equals("--set")) {
        int eq = words[i + 1].indexOf('=');
        set.put(words[i + 1].substring(0, eq), words[i + 1].substring(eq + 1));
      }
    }
    return set;
  }

  /** The job files a page shows as {@code ```fio NAME} blocks. */
  static JobFiles shownJobFiles(List<Block> blocks) {
    Map<String, String> jobFiles = new HashMap<>();
    blocks.stream()
        .filter(b -> b.info().startsWith("fio "))
        .forEach(b -> jobFiles.put(b.info().substring(4).strip(), b.text()));
    return path -> {
      String text = jobFiles.get(path);
      if (text == null) {
        throw new IllegalArgumentException("no such file");
      }
      return text;
    };
  }

  static List<Block> blocks(String markdown) {
    List<Block> blocks = new ArrayList<>();
    String[] lines = markdown.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      if (!lines[i].startsWith("```")) {
        continue;
      }
      String info = lines[i].substring(3).strip();
      StringBuilder text = new StringBuilder();
      int start = i + 1;
      for (i = i + 1; i < lines.length && !lines[i].equals("```"); i++) {
        text.append(lines[i]).append('\n');
      }
      blocks.add(new Block(info, text.toString(), start + 1));
    }
    return blocks;
  }
}
