package io.tunelab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.cli.CompletionScript;
import io.tunelab.report.Studies;
import io.tunelab.store.Fixtures;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.testing.Cli;
import io.tunelab.testing.TestTime;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The completion script the build ships, sourced in a real bash and driven the way bash drives it
 * (COMP_WORDS, COMP_CWORD, then the completion function), and the hidden command behind its
 * experiment completion.
 */
class CompletionTest {
  @TempDir static Path dir;
  static Path script;
  static String db;

  @BeforeAll
  static void writeTheScriptAndADatabase() throws Exception {
    script = dir.resolve("tunelab.bash");
    CompletionScript.main(new String[] {script.toString()}); // as the build writes it
    db = dir.resolve("study.db").toString();
    try (JdbcResultStore store = JdbcResultStore.open(Path.of(db), Fixtures.CLOCK)) {
      Studies.nfs(store);
      Studies.iscsi(store);
    }
  }

  @Test
  void aCommandCompletesFromItsPrefix() throws Exception {
    assertEquals(List.of("report"), complete("tunelab", "rep"));
    assertEquals(List.of("resume", "restore"), complete("tunelab", "res"));
  }

  @Test
  void formatsCompleteToTheirValues() throws Exception {
    assertEquals(
        List.of("text", "md", "csv", "json"), complete("tunelab", "report", "--format", ""));
    assertEquals(List.of("csv", "json", "jsonl"), complete("tunelab", "export", "--format", ""));
    assertEquals(List.of("table", "csv", "json"), complete("tunelab", "query", "--format", ""));
    assertEquals(List.of("jsonl"), complete("tunelab", "export", "--format", "jsonl"));
  }

  @Test
  void optionsComplete() throws Exception {
    assertTrue(complete("tunelab", "compare", "--").contains("--min-change"));
    assertEquals(List.of("matrix", "hosts"), complete("tunelab", "schema", ""));
  }

  @Test
  void experimentsCompleteFromTheDatabaseOnTheCommandLine() throws Exception {
    String tunelab = launcher().toString();

    assertEquals(
        List.of("3", "2", "1", "iscsi-readahead", "nfs-writeback"),
        complete(tunelab, "report", "--db", db, ""));
    assertEquals(List.of("iscsi-readahead"), complete(tunelab, "compare", "--db", db, "2", "is"));
    assertEquals(List.of("nfs-writeback"), complete(tunelab, "resume", "--db", db, "nfs"));
    assertEquals(List.of("3"), complete(tunelab, "export", "--db", db, "3"));
  }

  @Test
  void theHiddenCommandPrintsIdsThenNames() {
    Cli.Result r = Cli.tunelab("complete", "experiments", "--db", db);

    assertEquals(0, r.code());
    assertEquals("3\n2\n1\niscsi-readahead\nnfs-writeback\n", r.out());
    assertFalse(Cli.tunelab("--help").out().contains("complete"));
  }

  @Test
  void withoutADatabaseItPrintsNothingAndCreatesNothing() {
    Path missing = dir.resolve("none.db");

    Cli.Result r = Cli.tunelab("complete", "experiments", "--db", missing.toString());

    assertEquals(0, r.code());
    assertEquals("", r.all());
    assertFalse(Files.exists(missing));
  }

  /** Sources the script in bash and asks it to complete the last word. */
  private static List<String> complete(String... words) throws Exception {
    StringBuilder array = new StringBuilder();
    for (String w : words) {
      array.append(" '").append(w.replace("'", "'\\''")).append('\'');
    }
    String program =
        "source \"$1\"\n"
            // compopt works only while bash itself runs a completion function
            + "compopt() { :; }\n"
            + "COMP_WORDS=("
            + array
            + ")\n"
            + "COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))\n"
            + "COMP_LINE=\"${COMP_WORDS[*]}\"\n"
            + "COMP_POINT=${#COMP_LINE}\n"
            + "_complete_tunelab\n"
            + "printf '%s\\n' \"${COMPREPLY[@]}\"\n";
    Process p =
        new ProcessBuilder(
                "bash", "--norc", "--noprofile", "-c", program, "bash", script.toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(TestTime.seconds(60), TimeUnit.SECONDS), "bash did not finish");
    assertEquals(0, p.exitValue(), out);
    return out.lines().filter(l -> !l.isEmpty()).toList();
  }

  /** A {@code tunelab} that runs this build's classes, as the completion calls it back. */
  private static Path launcher() throws IOException {
    Path launcher = dir.resolve("tunelab");
    if (!Files.exists(launcher)) {
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      Files.writeString(
          launcher,
          "#!/bin/sh\nexec '"
              + java
              + "' -cp '"
              + System.getProperty("java.class.path")
              + "' io.tunelab.cli.Main \"$@\"\n");
      Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    return launcher;
  }
}
