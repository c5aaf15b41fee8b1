package io.tunelab.dist;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Integration;
import io.tunelab.testing.ReleaseArchive;
import io.tunelab.testing.RepoFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The man pages of the release archive, read as man shows them (roff markup removed). */
@Integration
class ManPagesIT {
  @TempDir static Path dir;
  static Path man;

  @BeforeAll
  static void unpack() throws Exception {
    man = ReleaseArchive.unpack(dir).resolve("man/man1");
  }

  @Test
  void reportsSynopsisNamesEachOptionWhole() throws Exception {
    String synopsis = section(page("tunelab-report"), "SYNOPSIS");

    assertTrue(synopsis.startsWith("tunelab report [-hV] [--stacktrace] [--cols=AXIS]"), synopsis);
    assertTrue(synopsis.contains(" [--html=FILE] [--job=JOB,…] [--metric=METRIC,…] "), synopsis);
    assertTrue(synopsis.contains(" [--rows=AXIS[,AXIS...]]... [EXPERIMENT]"), synopsis);
    assertFalse(synopsis.contains("_"), synopsis);
  }

  @Test
  void exportsSynopsisNamesEachOptionWhole() throws Exception {
    String synopsis = section(page("tunelab-export"), "SYNOPSIS");

    assertTrue(
        synopsis.contains(" [--format=FORMAT] [--job=JOB,…] [-o=FILE] [EXPERIMENT]"), synopsis);
    assertFalse(synopsis.contains("_"), synopsis);
  }

  @Test
  void noSynopsisLeaksMarkup() throws Exception {
    try (Stream<Path> pages = Files.list(man)) {
      for (Path page : pages.toList()) {
        String synopsis = section(text(page), "SYNOPSIS");
        for (String markup : List.of("_", "*", "] ]")) {
          assertFalse(synopsis.contains(markup), page + ": " + synopsis);
        }
      }
    }
  }

  @Test
  void tunelabHasExitStatusEnvironmentFilesAndExamples() throws Exception {
    String page = page("tunelab");

    String exit = section(page, "EXIT STATUS");
    for (String code : List.of("0", "1", "2", "3", "4")) {
      assertTrue(Pattern.compile("(?m)^" + code + "$").matcher(exit).find(), exit);
    }
    String environment = section(page, "ENVIRONMENT");
    for (String variable : List.of("TUNELAB_DB", "TUNELAB_STATE", "TUNELAB_SSH_PASSPHRASE")) {
      assertTrue(environment.contains(variable), environment);
    }
    assertTrue(section(page, "FILES").contains("~/.ssh/known_hosts"), page);
    assertTrue(section(page, "EXAMPLES").contains("tunelab help report"), page);
  }

  @Test
  void everyCommandsPageHasExitStatusAndSeeAlso() throws Exception {
    for (String command : HelpTest.commands()) {
      String page = page("tunelab-" + command.replace(' ', '-'));
      assertTrue(section(page, "EXIT STATUS").contains("Bad usage"), command);
      assertTrue(section(page, "SEE ALSO").contains("tunelab(1)"), command);
    }
    assertTrue(section(page("tunelab-report"), "EXAMPLES").contains("--job writer,reader"));
    assertTrue(section(page("tunelab-run"), "ENVIRONMENT").contains("TUNELAB_GRACE"));
  }

  static String page(String name) throws Exception {
    Path file = man.resolve(name + ".1");
    assertTrue(Files.isRegularFile(file), file.toString());
    return text(file);
  }

  /** A roff page as text: requests dropped, font changes and escapes resolved. */
  static String text(Path file) throws Exception {
    StringBuilder out = new StringBuilder();
    for (String line : RepoFiles.read(file).split("\n")) {
      if (line.startsWith(".SH ")) {
        out.append("\f").append(line.substring(4).replace("\"", "")).append('\n');
      } else if (!line.startsWith(".") && !line.startsWith("'")) {
        out.append(
                line.replaceAll("\\\\f[BIRP]", "")
                    .replace("\\-", "-")
                    .replace("\\(aq", "'")
                    .replace("\\&", "")
                    .replace("\\(ti", "~")
                    .replace("\\*(Tm", "(TM)"))
            .append('\n');
      }
    }
    return out.toString();
  }

  /** The text of one section ({@code .SH NAME}), lines joined as man fills them. */
  static String section(String page, String name) {
    Matcher m = Pattern.compile("\f" + Pattern.quote(name) + "\n([^\f]*)").matcher(page);
    assertTrue(m.find(), "no section " + name + " in\n" + page);
    return m.group(1).strip();
  }
}
