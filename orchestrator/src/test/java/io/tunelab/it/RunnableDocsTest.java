package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Cli;
import io.tunelab.testing.Integration;
import io.tunelab.testing.TestTime;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command block a page marks {@code <!-- runnable -->} (the line right before its {@code
 * ```sh} fence) runs as written, {@code ./tunelab} and {@code tunelab} alike, in a directory that
 * holds the quickstart's database as {@code tunelab.db} and the checkout's {@code matrices/},
 * {@code db/} and {@code bench/}: a command a page shows that no longer works fails here, naming
 * the page and line.
 */
@Integration
class RunnableDocsTest {
  static final String MARKER = "<!-- runnable -->";

  @TempDir Path dir;

  /** A runnable block: where it starts (the fence's line) and its text. */
  record Block(String where, String text) {}

  /** The runnable blocks of a page; a marker not right before a sh fence is a block error too. */
  static List<Block> blocks(String page, List<String> lines) {
    List<Block> blocks = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (!lines.get(i).trim().equals(MARKER)) {
        continue;
      }
      String where = page + ":" + (i + 2);
      if (i + 1 >= lines.size() || !lines.get(i + 1).equals("```sh")) {
        blocks.add(new Block(where, null));
        continue;
      }
      StringBuilder text = new StringBuilder();
      int j = i + 2;
      while (j < lines.size() && !lines.get(j).equals("```")) {
        text.append(lines.get(j)).append('\n');
        j++;
      }
      blocks.add(new Block(where, text.toString()));
    }
    return blocks;
  }

  @Test
  void everyBlockADocMarksRunnableRunsAsWritten() throws Exception {
    Lab.requireRoot();
    Path root = Lab.root();
    Cli.Result quickstart =
        Cli.tunelab(
            "run",
            root.resolve("matrices/quickstart.yaml").toString(),
            "--db",
            dir.resolve("tunelab.db").toString());
    assertEquals(0, quickstart.code(), quickstart.all());
    for (String linked : List.of("matrices", "db", "bench")) {
      Files.createSymbolicLink(dir.resolve(linked), root.resolve(linked));
    }
    Path tunelab = dir.resolve("tunelab");
    Files.writeString(
        tunelab,
        "#!/bin/sh\nexec '"
            + ProcessHandle.current().info().command().orElse("java")
            + "' -cp '"
            + System.getProperty("java.class.path")
            + "' io.tunelab.cli.Main \"$@\"\n");
    Files.setPosixFilePermissions(tunelab, PosixFilePermissions.fromString("rwxr-xr-x"));

    List<Block> blocks = new ArrayList<>();
    List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md")));
    try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    for (Path page : pages) {
      blocks.addAll(blocks(root.relativize(page).toString(), Files.readAllLines(page)));
    }
    assertTrue(blocks.size() >= 2, "pages mark runnable blocks: " + blocks);
    List<String> failed = new ArrayList<>();
    for (Block b : blocks) {
      String why = b.text() == null ? "the marker is not right before a ```sh fence" : run(b);
      if (why != null) {
        failed.add(b.where() + ": " + why);
      }
    }
    assertEquals(List.of(), failed);
  }

  /** Runs a block with {@code sh -e}; returns why it failed, or null. */
  private String run(Block b) throws IOException, InterruptedException {
    ProcessBuilder pb =
        new ProcessBuilder("sh", "-ec", b.text()).directory(dir.toFile()).redirectErrorStream(true);
    pb.environment().put("PATH", dir + ":" + System.getenv("PATH"));
    pb.environment().remove("TUNELAB_DB");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(TestTime.seconds(120), TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return "still running after 120 s";
    }
    return p.exitValue() == 0 ? null : "exit " + p.exitValue() + ":\n" + out;
  }
}
