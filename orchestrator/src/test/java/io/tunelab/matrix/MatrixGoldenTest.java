package io.tunelab.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tunelab.testing.GoldenFiles;
import io.tunelab.testing.RepoFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every {@code valid/*.yaml} expands to its {@code .cells.txt}; every {@code invalid/*.yaml} fails
 * with exactly its {@code .errors.txt}. Job files (fio) are read from the example's directory; a
 * {@code .set} file beside an example holds the run's {@code --set NAME=VALUE}, one a line.
 */
class MatrixGoldenTest {

  @TestFactory
  Stream<DynamicTest> validMatricesExpandToTheirGoldenCells() throws IOException {
    List<Path> files = yamlFiles("valid");
    assertFalse(files.isEmpty(), "no valid examples found");
    return files.stream()
        .map(
            yaml ->
                DynamicTest.dynamicTest(
                    yaml.getFileName().toString(),
                    () -> {
                      Matrix m =
                          MatrixLoader.load(
                              name(yaml), RepoFiles.read(yaml), beside(yaml), overrides(yaml));
                      String actual = CellText.describe(m);
                      Path golden = sibling(yaml, ".cells.txt");
                      assertEquals(GoldenFiles.expected(golden, actual), actual);
                    }));
  }

  @TestFactory
  Stream<DynamicTest> invalidMatricesFailWithTheirGoldenMessages() throws IOException {
    List<Path> files = yamlFiles("invalid");
    assertFalse(files.isEmpty(), "no invalid examples found");
    return files.stream()
        .map(
            yaml ->
                DynamicTest.dynamicTest(
                    yaml.getFileName().toString(),
                    () -> {
                      MatrixException e =
                          assertThrows(
                              MatrixException.class,
                              () ->
                                  MatrixLoader.load(
                                      name(yaml),
                                      RepoFiles.read(yaml),
                                      beside(yaml),
                                      overrides(yaml)));
                      assertEquals(2, e.exitCode());
                      String actual = e.getMessage() + "\n";
                      Path golden = sibling(yaml, ".errors.txt");
                      assertEquals(GoldenFiles.expected(golden, actual), actual);
                    }));
  }

  private static List<Path> yamlFiles(String dir) throws IOException {
    try (Stream<Path> s = Files.list(RepoFiles.testResources("matrix").resolve(dir))) {
      return s.filter(p -> p.toString().endsWith(".yaml")).sorted().collect(Collectors.toList());
    }
  }

  /** Job files next to the example, as the command line reads them next to the matrix. */
  static JobFiles beside(Path yaml) {
    return path -> {
      Path file = yaml.resolveSibling(path);
      if (!Files.isRegularFile(file)) {
        throw new IllegalArgumentException("no such file");
      }
      return RepoFiles.read(file);
    };
  }

  /** The {@code --set}s of the example's {@code .set} file, in order; none without one. */
  static Map<String, String> overrides(Path yaml) {
    Path file = sibling(yaml, ".set");
    Map<String, String> set = new LinkedHashMap<>();
    if (Files.isRegularFile(file)) {
      for (String line : RepoFiles.read(file).split("\n")) {
        if (!line.isBlank()) {
          int eq = line.indexOf('=');
          set.put(line.substring(0, eq), line.substring(eq + 1));
        }
      }
    }
    return set;
  }

  private static String name(Path yaml) {
    return yaml.getFileName().toString();
  }

  private static Path sibling(Path yaml, String suffix) {
    String base = name(yaml).substring(0, name(yaml).length() - ".yaml".length());
    return yaml.resolveSibling(base + suffix);
  }
}
