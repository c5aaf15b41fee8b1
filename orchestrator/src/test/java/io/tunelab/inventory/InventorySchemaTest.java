package io.tunelab.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * docs/schema/hosts.schema.json against the inventory loader: every valid inventory and documented
 * example validates; every invalid golden and bad example fails the schema unless listed below with
 * the reason why no schema can see its mistake.
 */
class InventorySchemaTest {
  /** Not a YAML document an editor accepts: its YAML parser reports them, not the schema. */
  private static final Map<String, String> YAML_NOT_SCHEMA =
      Map.of(
          "duplicates.yaml", "a key written twice: the parsed document keeps one of them",
          "malformed.yaml", "a mis-indented key");

  /** No invalid inventory needs the rest of the file yet: every other mistake is one of shape. */
  private static final Map<String, String> SEMANTIC_NOT_SCHEMA = Map.of();

  private static final String BASE = "/home/me/lab";
  private static final Schema SCHEMA = JsonSchemas.load("hosts");

  @TestFactory
  Stream<DynamicTest> everyValidInventoryAndExampleValidates() throws IOException {
    return validExamples().entrySet().stream()
        .map(
            e ->
                DynamicTest.dynamicTest(
                    e.getKey(),
                    () -> {
                      Inventory.load("hosts.yaml", e.getValue(), BASE);
                      assertEquals(List.of(), JsonSchemas.errors(SCHEMA, e.getValue()));
                    }));
  }

  @TestFactory
  Stream<DynamicTest> everyInvalidOneFailsTheSchemaOrIsListed() throws IOException {
    Map<String, String> invalid = new LinkedHashMap<>();
    for (Path p : files(RepoFiles.testResources("inventory").resolve("invalid"))) {
      invalid.put(p.getFileName().toString(), RepoFiles.read(p));
    }
    for (InventoryDocsTest.Block b : docsBlocks()) {
      if (b.info().equals("yaml bad")) {
        invalid.put("docs/hosts.md line " + b.line(), b.text());
      }
    }
    List<DynamicTest> tests = new ArrayList<>();
    invalid.forEach(
        (name, text) ->
            tests.add(
                DynamicTest.dynamicTest(
                    name,
                    () -> {
                      assertThrows(
                          InventoryException.class, () -> Inventory.load("h.yaml", text, BASE));
                      if (YAML_NOT_SCHEMA.containsKey(name)) {
                        assertNotNull(JsonSchemas.yamlProblem(text), name + " parses as YAML");
                        return;
                      }
                      List<String> errors = JsonSchemas.errors(SCHEMA, text);
                      if (SEMANTIC_NOT_SCHEMA.containsKey(name)) {
                        assertEquals(List.of(), errors, name + " is caught by the schema");
                      } else {
                        assertFalse(errors.isEmpty(), name + " passes the schema");
                      }
                    })));
    return tests.stream();
  }

  @Test
  void theListsNameOnlyExistingFiles() throws IOException {
    Set<String> invalid = new TreeSet<>();
    for (Path p : files(RepoFiles.testResources("inventory").resolve("invalid"))) {
      invalid.add(p.getFileName().toString());
    }
    assertTrue(invalid.containsAll(YAML_NOT_SCHEMA.keySet()), YAML_NOT_SCHEMA.toString());
    assertTrue(invalid.containsAll(SEMANTIC_NOT_SCHEMA.keySet()), SEMANTIC_NOT_SCHEMA.toString());
  }

  /** A key the schema allows but no loadable inventory uses could be one the loader refuses. */
  @Test
  void everyKeyTheSchemaDeclaresIsUsedByAnInventoryThatLoads() throws IOException {
    Set<String> used = new TreeSet<>();
    for (String text : validExamples().values()) {
      used.addAll(JsonSchemas.usedKeys(text));
    }
    Set<String> unused = new TreeSet<>(JsonSchemas.declaredKeys("hosts"));
    unused.removeAll(used);

    assertEquals(Set.of(), unused);
  }

  private static Map<String, String> validExamples() throws IOException {
    Map<String, String> examples = new LinkedHashMap<>();
    for (Path p : files(RepoFiles.testResources("inventory").resolve("valid"))) {
      examples.put("valid/" + p.getFileName(), RepoFiles.read(p));
    }
    for (InventoryDocsTest.Block b : docsBlocks()) {
      if (b.info().equals("yaml")) {
        examples.put("docs/hosts.md line " + b.line(), b.text());
      }
    }
    assertTrue(examples.size() >= 5, "expected the valid inventories, found " + examples.keySet());
    return examples;
  }

  private static List<InventoryDocsTest.Block> docsBlocks() {
    return InventoryDocsTest.blocks(RepoFiles.read(RepoFiles.repoRoot().resolve("docs/hosts.md")));
  }

  private static List<Path> files(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    }
  }
}
