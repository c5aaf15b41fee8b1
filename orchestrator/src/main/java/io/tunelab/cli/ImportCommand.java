package io.tunelab.cli;

import io.tunelab.store.ImportedExperiment;
import io.tunelab.store.ImportedExperiment.Outcome;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tunelab import FILE.db…}: copies the experiments of other databases into this one. */
@Command(
    name = "import",
    mixinStandardHelpOptions = true,
    description = {
      "Copy every experiment of tunelab SQLite files into the database (--db), each in one"
          + " transaction. An experiment is known by its uuid: importing a file twice adds"
          + " nothing the second time. A copied experiment gets the database's next id; its"
          + " cells and trials keep their order.",
      "Each file must be yours and writable by no one else, as for restore: its steps may run"
          + " later (resume, restore); every file is checked before the first is copied. A"
          + " running experiment is left out (exit code 1)."
    })
final class ImportCommand implements Callable<Integer> {
  @Parameters(
      paramLabel = "FILE",
      arity = "1..*",
      description = "The SQLite databases to copy from, in the order given.")
  List<Path> sources;

  @Mixin DatabaseOption db;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    for (Path source : sources) {
      Databases.openReader(source).close();
      StoredSteps.requireTrusted(source);
    }
    int left = 0;
    for (Path source : sources) {
      left += importFile(source);
    }
    return left > 0 ? 1 : 0;
  }

  /**
   * Imports one file and says what became of each of its experiments; returns how many were left
   * out.
   */
  private int importFile(Path source) {
    List<ImportedExperiment> done = Databases.importFile(source, db);
    PrintWriter out = spec.commandLine().getOut();
    int added = 0;
    int there = 0;
    int left = 0;
    for (ImportedExperiment e : done) {
      String what =
          "experiment "
              + e.sourceId()
              + " '"
              + e.name()
              + "' ("
              + e.status()
              + ", "
              + e.trials()
              + (e.trials() == 1 ? " trial" : " trials")
              + "): ";
      if (e.outcome() == Outcome.ADDED) {
        added++;
        out.println(what + "added as experiment " + e.id());
      } else if (e.outcome() == Outcome.ALREADY_THERE) {
        there++;
        out.println(what + "already here as experiment " + e.id());
      } else {
        left++;
        spec.commandLine().getErr().println("tunelab: " + source + ": " + what + e.reason());
      }
    }
    out.println(
        source + ": " + added + " added, " + there + " already here, " + left + " left out");
    out.flush();
    return left;
  }
}
