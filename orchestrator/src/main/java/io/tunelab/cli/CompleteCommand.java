package io.tunelab.cli;

import io.tunelab.store.ResultTable;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tunelab complete experiments}: the words the shell completion offers for an EXPERIMENT,
 * which picocli's generated script cannot know. Hidden: the script calls it, people do not.
 */
@Command(
    name = "complete",
    hidden = true,
    description = "Print completion words: 'experiments' prints every experiment's id and name.")
final class CompleteCommand implements Callable<Integer> {
  @Parameters(paramLabel = "WHAT", description = "experiments")
  String what;

  @Mixin DatabaseOption db;

  @Spec CommandSpec spec;

  /**
   * Ids (newest first) and then names, one per line. Silent on any error: a missing or foreign
   * database just completes nothing, and nothing may be printed into the user's command line.
   */
  @Override
  public Integer call() {
    if (!"experiments".equals(what)) {
      return 0;
    }
    Set<String> words = new LinkedHashSet<>();
    try {
      ResultTable t =
          Databases.query(db.path(), "select id, name from experiments order by id desc");
      for (List<Object> row : t.rows()) {
        words.add(String.valueOf(row.get(0)));
      }
      for (List<Object> row : t.rows()) {
        if (row.get(1) != null) {
          words.add(String.valueOf(row.get(1)));
        }
      }
    } catch (RuntimeException e) {
      return 0; // completion must never print an error into the command line being typed
    }
    words.forEach(spec.commandLine().getOut()::println);
    return 0;
  }
}
