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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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

  /** A grid's header ({@code N cells x R repetitions}) or a search's ({@code over N cells}). */
  private static final Pattern CELLS =
      Pattern.compile("^[^\\n]*: (?:a (?:race|screen) for .* over )?(\\d+) cells?[ ,]");

  /** What lab/vm up writes to lab/vm-state/env, for the VM lab's command lines. */
  private static final Map<String, String> VM_ENV =
      Map.of(
          "SERVER_ADDRESS", "169.254.100.1",
          "ISCSI_PORTAL", "169.254.100.1:3260",
          "ISCSI_IQN", "iqn.2026-12.lab.tunelab:server.lun1",
          "SERVER_LUN_DISK", "vdb",
          "NFS_EXPORT", "/srv/nfs",
          "CLIENT_DISK", "vdb");

  private static final Pattern SHELL_VARIABLE = Pattern.compile("\\$([A-Za-z_][A-Za-z0-9_]*)");

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

  /**
   * The command lines docs/studies.md gives for the VM lab plan cleanly: run as {@code plan}, with
   * the shell variables they use set as lab/vm's env sets them, against an inventory of its hosts.
   */
  @TestFactory
  Stream<DynamicTest> theVmLabsCommandLinesOfDocsStudiesPlan() throws IOException {
    Path inventory = Files.writeString(dir.resolve("vm-hosts.yaml"), LAB_INVENTORY);
    List<List<String>> commands = vmLabCommands();
    assertEquals(6, commands.size(), commands.toString());
    return commands.stream()
        .map(
            words ->
                DynamicTest.dynamicTest(
                    words.get(2),
                    () -> {
                      List<String> args = new ArrayList<>(words.subList(1, words.size()));
                      args.set(0, "plan");
                      args.set(args.indexOf("lab/vm-hosts.yaml"), inventory.toString());
                      args.set(1, RepoFiles.repoRoot().resolve(args.get(1)).toString());
                      Cli.Result r = Cli.tunelab(args.toArray(String[]::new));
                      assertEquals(0, r.code(), String.join(" ", args) + "\n" + r.all());
                      assertTrue(CELLS.matcher(r.out()).find(), r.out());
                    }));
  }

  /** The {@code ./tunelab run} lines of the page's VM lab section, variables expanded. */
  private static List<List<String>> vmLabCommands() {
    String page = RepoFiles.read(RepoFiles.repoRoot().resolve("docs/studies.md"));
    String section = page.substring(page.indexOf("## On the VM lab"));
    String block = section.substring(section.indexOf("```sh\n") + 6, section.indexOf("\n```\n"));
    Map<String, String> vars = new HashMap<>(VM_ENV);
    List<List<String>> commands = new ArrayList<>();
    for (String line : block.replace("\\\n", " ").split("\n")) {
      String expanded = expand(line, vars);
      Matcher assignment = Pattern.compile("^(\\w+)=\"(.*)\"$").matcher(expanded);
      if (assignment.matches()) {
        vars.put(assignment.group(1), assignment.group(2));
      } else if (expanded.startsWith("./tunelab run ")) {
        commands.add(List.of(expanded.trim().split("\\s+")));
      }
    }
    return commands;
  }

  private static String expand(String line, Map<String, String> vars) {
    Matcher m = SHELL_VARIABLE.matcher(line);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String value = vars.get(m.group(1));
      assertTrue(
          value != null, "docs/studies.md uses $" + m.group(1) + ", which lab/vm does not set");
      m.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    return m.appendTail(out).toString();
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
