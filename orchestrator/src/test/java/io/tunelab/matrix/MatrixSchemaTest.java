package io.tunelab.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.networknt.schema.Schema;
import io.tunelab.testing.JsonSchemas;
import io.tunelab.testing.RepoFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * docs/schema/matrix.schema.json against the loader: every matrix the repository ships or documents
 * validates, and every invalid golden fails the schema unless it is listed below with the reason
 * why no schema can see its mistake.
 */
class MatrixSchemaTest {
  /** Mistakes that need the rest of the file or the knob catalogue: only the loader sees them. */
  private static final Map<String, String> SEMANTIC_NOT_SCHEMA =
      Map.ofEntries(
          Map.entry("bad-knob-value.yaml", "value ranges of knobs come from the knob catalogue"),
          Map.entry(
              "kernel-bad-release.yaml",
              "a role's kernel is a knob key to the schema; the release rule is the loader's"),
          Map.entry("boots-above-repeat.yaml", "boots against repeat is arithmetic"),
          Map.entry(
              "repeat-min-above-max.yaml",
              "min against max, and a target of 0%, are arithmetic the pattern does not do"),
          Map.entry("repeat-compare.yaml", "whether compare names an axis depends on matrix:"),
          Map.entry(
              "repeat-compare-misspelt.yaml", "whether compare names an axis depends on matrix:"),
          Map.entry(
              "repeat-compare-one-value.yaml",
              "how many values the compared axis has depends on matrix:"),
          Map.entry(
              "boots-without-kernel.yaml",
              "boots needs a ROLE.kernel somewhere in the matrix: a rule across keys"),
          Map.entry(
              "bs-total-mismatch.yaml",
              "64Q must be a size only because workload.dd.bs uses ${bs}; total/bs is arithmetic"),
          Map.entry(
              "exclude-missing-value.yaml", "exclude and include must name the axes' own values"),
          Map.entry("knob-set-twice.yaml", "the same knob through two roles on one host"),
          Map.entry(
              "knob-name-path-values.yaml", "which axis values reach a knob name is in the keys"),
          Map.entry(
              "params-set-bad.yaml", "the file is valid: the run's --set (its .set file) is not"),
          Map.entry(
              "params-set-path.yaml", "the file is valid: the run's --set (its .set file) is not"),
          Map.entry("unknown-knob.yaml", "knob names come from the knob catalogue"),
          Map.entry("vm-sysctl-typo.yaml", "the known vm sysctls come from the knob catalogue"),
          Map.entry(
              "fio-job-keys.yaml",
              "fio options are open-ended; tunelab's job keys are checked by name"),
          Map.entry(
              "timeout-inside-grace.yaml", "timeout against duration plus the grace is arithmetic"),
          Map.entry(
              "stop-grace-short.yaml", "timeout against duration plus stop_grace is arithmetic"),
          Map.entry("unknown-role.yaml", "roles are declared in the same file"),
          Map.entry("unknown-variable.yaml", "variables are declared in the same file"));

  /** Not YAML at all: the editor's YAML parser reports them before any schema applies. */
  private static final Map<String, String> YAML_NOT_SCHEMA =
      Map.of(
          "flow-needs-quotes.yaml", "${bs} unquoted in a flow map opens a nested map",
          "malformed-yaml.yaml", "an unclosed flow sequence",
          "colon-in-run.yaml", "a ': ' inside a plain value starts a map",
          "flow-key-needs-quotes.yaml", "${dev} unquoted in a flow map's key opens a nested map");

  /** The documented bad examples of docs/matrix.md, by name, whose mistakes are semantic. */
  private static final Map<String, String> SEMANTIC_DOCS_EXAMPLES =
      Map.of(
          "typo-in-exclude", "exclude must name the axes' own values",
          "ragged-total", "total/bs is arithmetic on a parameter's values",
          "roles-and-variables", "roles and variables are declared in the same file");

  private static final Schema SCHEMA = JsonSchemas.load("matrix");

  @TestFactory
  Stream<DynamicTest> everyMatrixTheRepositoryShipsOrDocumentsValidates() throws IOException {
    return validExamples().entrySet().stream()
        .map(
            e ->
                DynamicTest.dynamicTest(
                    e.getKey(),
                    () -> {
                      MatrixLoader.load("matrix.yaml", e.getValue().text(), e.getValue().files());
                      assertEquals(List.of(), JsonSchemas.errors(SCHEMA, e.getValue().text()));
                    }));
  }

  @TestFactory
  Stream<DynamicTest> everyInvalidGoldenFailsTheSchemaOrIsListedAsSemantic() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (Path yaml : files(RepoFiles.testResources("matrix").resolve("invalid"))) {
      String name = yaml.getFileName().toString();
      String text = RepoFiles.read(yaml);
      tests.add(DynamicTest.dynamicTest(name, () -> checkInvalid(name, text)));
    }
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> everyBadExampleOfTheDocsFailsTheSchemaOrIsListedAsSemantic() {
    List<DynamicTest> tests = new ArrayList<>();
    for (DocsExamplesTest.Block b : docsBlocks()) {
      if (b.info().equals("yaml bad")) {
        String name = nameOf(b.text());
        tests.add(
            DynamicTest.dynamicTest(
                "docs/matrix.md " + name,
                () -> {
                  assertThrows(MatrixException.class, () -> MatrixLoader.load("m.yaml", b.text()));
                  List<String> errors = JsonSchemas.errors(SCHEMA, b.text());
                  if (SEMANTIC_DOCS_EXAMPLES.containsKey(name)) {
                    assertEquals(
                        List.of(), errors, name + " is listed as semantic, not schema: unlist it");
                  } else {
                    assertFalse(errors.isEmpty(), name + " passes the schema");
                  }
                }));
      }
    }
    return tests.stream();
  }

  @Test
  void theListsNameOnlyExistingFilesAndExamples() throws IOException {
    Set<String> invalid = new TreeSet<>();
    for (Path p : files(RepoFiles.testResources("matrix").resolve("invalid"))) {
      invalid.add(p.getFileName().toString());
    }
    assertTrue(invalid.containsAll(SEMANTIC_NOT_SCHEMA.keySet()), SEMANTIC_NOT_SCHEMA.toString());
    assertTrue(invalid.containsAll(YAML_NOT_SCHEMA.keySet()), YAML_NOT_SCHEMA.toString());
    Set<String> bad =
        docsBlocks().stream()
            .filter(b -> b.info().equals("yaml bad"))
            .map(b -> nameOf(b.text()))
            .collect(Collectors.toSet());
    assertTrue(bad.containsAll(SEMANTIC_DOCS_EXAMPLES.keySet()), bad.toString());
  }

  @Test
  void theSchemaHasTheLoadersTopLevelKeys() throws IOException {
    var schema = JsonSchemas.json(JsonSchemas.text("matrix"));
    Set<String> keys = new TreeSet<>();
    schema.get("properties").fieldNames().forEachRemaining(keys::add);

    assertEquals(new TreeSet<>(MatrixLoader.TOP_KEYS), keys);
  }

  /** A key the schema allows but no example uses could be one the loader refuses. */
  @Test
  void everyKeyTheSchemaDeclaresIsUsedByAMatrixThatLoads() throws IOException {
    Set<String> used = new TreeSet<>();
    for (Example example : validExamples().values()) {
      used.addAll(JsonSchemas.usedKeys(example.text()));
    }
    Set<String> unused = new TreeSet<>(JsonSchemas.declaredKeys("matrix"));
    unused.removeAll(used);

    assertEquals(Set.of(), unused);
  }

  private static void checkInvalid(String name, String text) throws JsonProcessingException {
    if (YAML_NOT_SCHEMA.containsKey(name)) {
      assertNotNull(JsonSchemas.yamlProblem(text), name + " is listed as not YAML, but it parses");
      return;
    }
    List<String> errors = JsonSchemas.errors(SCHEMA, text);
    if (SEMANTIC_NOT_SCHEMA.containsKey(name)) {
      assertEquals(
          List.of(),
          errors,
          name + " is listed as semantic, not schema, but the schema catches it: unlist it");
    } else {
      assertFalse(errors.isEmpty(), name + " passes the schema");
    }
  }

  /** A matrix that must load and validate, and the job files it may name. */
  private record Example(String text, JobFiles files) {}

  /** Name → every matrix that must load and validate. */
  private static Map<String, Example> validExamples() throws IOException {
    Map<String, Example> examples = new LinkedHashMap<>();
    Path root = RepoFiles.repoRoot();
    try (Stream<Path> s = Files.walk(root.resolve("matrices"))) {
      // hosts*.yaml beside the study matrices are inventories, not matrices
      for (Path p :
          s.filter(f -> f.toString().endsWith(".yaml"))
              .filter(f -> !f.getFileName().toString().startsWith("hosts"))
              .sorted()
              .toList()) {
        examples.put(
            root.relativize(p).toString(),
            new Example(RepoFiles.read(p), MatrixGoldenTest.beside(p)));
      }
    }
    for (Path p : files(RepoFiles.testResources("matrix").resolve("valid"))) {
      examples.put(
          "valid/" + p.getFileName(), new Example(RepoFiles.read(p), MatrixGoldenTest.beside(p)));
    }
    for (String page : List.of("docs/matrix.md", "docs/workloads.md")) {
      List<DocsExamplesTest.Block> blocks =
          DocsExamplesTest.blocks(RepoFiles.read(root.resolve(page)));
      JobFiles shown = DocsExamplesTest.shownJobFiles(blocks);
      for (DocsExamplesTest.Block b : blocks) {
        if (b.info().equals("yaml")) {
          examples.put(page + " line " + b.line(), new Example(b.text(), shown));
        }
      }
    }
    assertTrue(examples.size() >= 10, "expected the repository's matrices, found " + examples);
    return examples;
  }

  private static List<DocsExamplesTest.Block> docsBlocks() {
    return DocsExamplesTest.blocks(RepoFiles.read(RepoFiles.repoRoot().resolve("docs/matrix.md")));
  }

  private static String nameOf(String yaml) {
    for (String line : yaml.split("\n")) {
      if (line.startsWith("name: ")) {
        return line.substring("name: ".length()).strip();
      }
    }
    return "(no name)";
  }

  private static List<Path> files(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    }
  }
}
