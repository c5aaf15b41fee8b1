package io.tunelab.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.cli.TunelabCommand;
import io.tunelab.testing.Cli;
import io.tunelab.testing.RepoFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code tunelab help}, and the sources of the man pages: a page for every command, and one list of
 * the environment variables that names each one tunelab, its launcher or its agent reads.
 */
class HelpTest {
  static final Path MAN = RepoFiles.repoRoot().resolve("orchestrator/src/main/man");

  /** Set by the tests and the lab only; the environment page says so without listing them. */
  static final Set<String> TEST_ONLY = Set.of("TUNELAB_ROOT", "TUNELAB_LAB");

  @Test
  void helpReportPrintsReportsUsage() {
    Cli.Result help = Cli.tunelab("help", "report");
    Cli.Result usage = Cli.tunelab("report", "--help");

    assertEquals(0, help.code(), help.all());
    assertEquals(usage.out(), help.out());
    assertTrue(help.out().startsWith("Usage: tunelab report "), help.out());
    assertTrue(help.out().contains("--metric=METRIC,…"), help.out());
    assertTrue(help.out().contains("--job=JOB,…"), help.out());
  }

  @Test
  void helpAloneListsTheCommands() {
    Cli.Result r = Cli.tunelab("help");

    assertEquals(0, r.code(), r.all());
    assertTrue(r.out().startsWith("Usage: tunelab "), r.out());
    for (String command : commands()) {
      assertTrue(r.out().contains("\n  " + command.split(" ")[0] + " "), command + "\n" + r.out());
    }
  }

  @Test
  void helpOfAnUnknownCommandIsBadUsage() {
    Cli.Result r = Cli.tunelab("help", "reprot");

    assertEquals(2, r.code(), r.all());
  }

  @Test
  void everyCommandHasAManPageSource() {
    List<String> missing = new ArrayList<>();
    for (String command : commands()) {
      String page = "tunelab-" + command.replace(' ', '-') + ".adoc";
      if (!Files.isRegularFile(MAN.resolve(page))) {
        missing.add(page);
      }
    }
    assertTrue(Files.isRegularFile(MAN.resolve("tunelab.adoc")));
    assertEquals(List.of(), missing, "add a page to " + MAN + " as the others are");
  }

  @Test
  void theEnvironmentPageNamesEveryVariableTheCodeReads() throws IOException {
    String page = RepoFiles.read(MAN.resolve("_environment.adoc"));
    Set<String> read = new TreeSet<>();
    for (String dir :
        List.of("orchestrator/src/main/java", "orchestrator/src/dist", "agents/src/main")) {
      read.addAll(variables(RepoFiles.repoRoot().resolve(dir)));
    }
    read.removeAll(TEST_ONLY);
    assertTrue(read.contains("TUNELAB_DB") && read.contains("TUNELAB_STATE"), read.toString());

    List<String> unlisted = read.stream().filter(v -> !page.contains("*" + v + "*")).toList();
    assertEquals(List.of(), unlisted, "add them to " + MAN.resolve("_environment.adoc"));
  }

  /** Every command a user can call, as {@code report} or {@code hosts check}. */
  static List<String> commands() {
    List<String> names = new ArrayList<>();
    collect(new CommandLine(new TunelabCommand()), "", names);
    return names;
  }

  private static void collect(CommandLine cli, String prefix, List<String> names) {
    cli.getSubcommands()
        .forEach(
            (name, sub) -> {
              boolean hidden = sub.getCommandSpec().usageMessage().hidden();
              if (!hidden && !sub.getCommandSpec().helpCommand()) {
                names.add(prefix + name);
                collect(sub, prefix + name + " ", names);
              }
            });
  }

  private static Set<String> variables(Path dir) throws IOException {
    Pattern name = Pattern.compile("TUNELAB_[A-Z_]*[A-Z]");
    Set<String> found = new TreeSet<>();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        Matcher m = name.matcher(Files.readString(file));
        while (m.find()) {
          found.add(m.group());
        }
      }
    }
    return found;
  }
}
