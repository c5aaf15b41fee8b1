package io.tunelab.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.plan.MatrixExpander;
import io.tunelab.testing.Cli;
import io.tunelab.testing.RepoFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every study matrix under matrices/studies and matrices/lab loads, expands to cells and passes
 * {@code tunelab plan}, which only reads files: the real-machine ones against the example inventory
 * they name, the lab ones against an inventory of the lab's two hosts (the lab's own lab/hosts.yaml
 * exists only while the lab is up).
 */
class StudyMatricesLoadTest {
  private static final String LAB_INVENTORY =
      """
      hosts:
        server: {address: 127.0.0.2, port: 2222, user: root}
        client: {address: 127.0.0.3, port: 2222, user: root}
      """;
  private static final Pattern CELLS = Pattern.compile("^[^\\n]*: (\\d+) cells? x ");

  @TempDir Path dir;

  @TestFactory
  Stream<DynamicTest> everyRealMachineStudyLoadsAndPlansAgainstItsExampleInventory() {
    List<Path> files = matrices("matrices/studies");
    assertTrue(files.size() >= 3, "expected the study matrices, found " + files);
    return files.stream()
        .map(f -> DynamicTest.dynamicTest(name(f), () -> loadsAndPlans(f, List.of())));
  }

  @TestFactory
  Stream<DynamicTest> everyLabStudyLoadsAndPlansAgainstTheLabsHosts() throws IOException {
    List<Path> files = matrices("matrices/lab");
    assertTrue(files.size() >= 3, "expected the lab study matrices, found " + files);
    Path inventory = Files.writeString(dir.resolve("hosts.yaml"), LAB_INVENTORY);
    return files.stream()
        .map(
            f ->
                DynamicTest.dynamicTest(
                    name(f), () -> loadsAndPlans(f, List.of("--hosts", inventory.toString()))));
  }

  private static void loadsAndPlans(Path file, List<String> options) {
    Matrix m = MatrixLoader.load(file.toString(), RepoFiles.read(file), beside(file));
    assertFalse(MatrixExpander.expand(m).isEmpty(), file + " has no cells");

    String[] args =
        Stream.concat(
                Stream.concat(Stream.of("plan"), options.stream()), Stream.of(file.toString()))
            .toArray(String[]::new);
    Cli.Result r = Cli.tunelab(args);
    assertEquals(0, r.code(), r.all());
    assertEquals("", r.err());
    Matcher cells = CELLS.matcher(r.out());
    assertTrue(cells.find(), r.out());
    assertTrue(Integer.parseInt(cells.group(1)) > 0, r.out());
  }

  /** The matrices of a directory: its YAML files but the inventories ({@code hosts*.yaml}). */
  private static List<Path> matrices(String directory) {
    try (Stream<Path> files = Files.list(RepoFiles.repoRoot().resolve(directory))) {
      return files
          .filter(f -> f.getFileName().toString().endsWith(".yaml"))
          .filter(f -> !f.getFileName().toString().startsWith("hosts"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String name(Path file) {
    return file.getParent().getFileName() + "/" + file.getFileName();
  }

  /** Job files relative to the matrix file, as tunelab reads them. */
  private static JobFiles beside(Path file) {
    return path -> {
      Path jobFile = file.resolveSibling(path);
      if (!Files.isRegularFile(jobFile)) {
        throw new IllegalArgumentException("no such file");
      }
      try {
        return Files.readString(jobFile, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    };
  }
}
