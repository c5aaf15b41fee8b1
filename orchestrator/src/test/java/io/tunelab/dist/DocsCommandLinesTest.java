package io.tunelab.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.cli.TunelabCommand;
import io.tunelab.testing.RepoFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Every {@code tunelab COMMAND --option} a page of README.md or docs/ shows in a code block is a
 * command tunelab has, with options its {@code --help} lists: a renamed or removed option fails
 * here, not in a user's shell. It also keeps the pages from citing a file outside the checkout.
 */
class DocsCommandLinesTest {
  /** A command line in a code block: {@code tunelab}, {@code ./tunelab} or {@code $ tunelab}. */
  private static final Pattern LINE =
      Pattern.compile("(?m)^\\s*(?:\\$ |sudo )?(?:\\./|TUNELAB_\\w+=\\S+ )?tunelab ([^\\n#]*)");

  private static final Pattern OPTION = Pattern.compile("(?<![\\w-])(--[a-z][a-z-]*)");

  @Test
  void everyCommandAndOptionTheDocsShowExists() throws IOException {
    CommandLine top = new CommandLine(new TunelabCommand());
    List<String> wrong = new ArrayList<>();
    int lines = 0;
    for (Path page : pages()) {
      for (String block : codeBlocks(Files.readString(page))) {
        Matcher m = LINE.matcher(block);
        while (m.find()) {
          lines++;
          String line = m.group(1).replaceAll("\\\\$", "").trim();
          CommandLine cmd = command(top, line);
          if (cmd == null) {
            wrong.add(page.getFileName() + ": no command: tunelab " + line);
            continue;
          }
          Matcher o = OPTION.matcher(line);
          while (o.find()) {
            if (!hasOption(cmd.getCommandSpec(), o.group(1))) {
              wrong.add(
                  page.getFileName()
                      + ": tunelab "
                      + cmd.getCommandSpec().qualifiedName(" ").replaceFirst("^tunelab ", "")
                      + " has no "
                      + o.group(1)
                      + " (in: tunelab "
                      + line
                      + ")");
            }
          }
        }
      }
    }
    assertTrue(lines > 50, "found only " + lines + " command lines: the pattern is wrong");
    assertEquals(List.of(), wrong);
  }

  @Test
  void noPageCitesAFileOutsideTheCheckout() throws IOException {
    Path root = RepoFiles.repoRoot().toAbsolutePath().normalize();
    Pattern link = Pattern.compile("\\]\\(([^)#\\s]+)[^)]*\\)");
    List<String> outside = new ArrayList<>();
    for (Path page : pages()) {
      String text = Files.readString(page);
      if (text.contains("DESIGN.md")) {
        outside.add(page.getFileName() + " cites DESIGN.md");
      }
      Matcher m = link.matcher(text);
      while (m.find()) {
        String target = m.group(1);
        if (target.matches("[a-z]+:.*")) {
          continue; // a URL
        }
        Path file = page.getParent().resolve(target).toAbsolutePath().normalize();
        if (!file.startsWith(root) || !Files.exists(file)) {
          outside.add(page.getFileName() + " links to " + target + ", not a file of the checkout");
        }
      }
    }
    assertEquals(List.of(), outside);
  }

  /** The deepest subcommand the line's leading words name; null when the first names none. */
  private static CommandLine command(CommandLine top, String line) {
    CommandLine cmd = top;
    boolean any = false;
    for (String word : line.split("\\s+")) {
      CommandLine sub = cmd.getSubcommands().get(word);
      if (sub == null) {
        break;
      }
      cmd = sub;
      any = true;
    }
    if (!any && !line.startsWith("-")) {
      return null;
    }
    return cmd;
  }

  private static boolean hasOption(CommandSpec spec, String name) {
    for (CommandSpec s = spec; s != null; s = s.parent()) {
      if (s.findOption(name) != null) {
        return true;
      }
    }
    return false;
  }

  private static List<Path> pages() throws IOException {
    List<Path> pages = new ArrayList<>(List.of(RepoFiles.repoRoot().resolve("README.md")));
    try (Stream<Path> docs = Files.list(RepoFiles.repoRoot().resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    return pages;
  }

  private static List<String> codeBlocks(String text) {
    List<String> blocks = new ArrayList<>();
    Matcher m = Pattern.compile("(?ms)^\\s*```[^\\n]*\\n(.*?)^\\s*```").matcher(text);
    while (m.find()) {
      blocks.add(m.group(1));
    }
    return blocks;
  }
}
