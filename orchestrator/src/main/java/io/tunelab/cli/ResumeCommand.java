package io.tunelab.cli;

import io.tunelab.TunelabException;
import io.tunelab.cli.ExperimentSession.Watch;
import io.tunelab.inventory.Inventory;
import io.tunelab.matrix.Matrix;
import io.tunelab.run.Captures;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.ResultStore;
import io.tunelab.store.StoredExperiment;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code tunelab resume EXPERIMENT}: run the trials an interrupted experiment did not finish. */
@Command(
    name = "resume",
    mixinStandardHelpOptions = true,
    description =
        "Continue an interrupted experiment, with the --set overrides it was started with; a"
            + " finished trial never runs again.")
final class ResumeCommand implements Callable<Integer> {
  @Parameters(
      paramLabel = "EXPERIMENT",
      description = "Experiment id or name (latest of that name).")
  String experiment;

  @Mixin RunOptions options;

  @ParentCommand TunelabCommand top;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    return resume(
        options,
        experiment,
        spec.commandLine().getOut(),
        new ExperimentSession.Watch(top.terminal, options.maxTime.value()));
  }

  /**
   * Resumes {@code experiment} of {@code options.db}: its setup, workload, job files and teardown
   * come from the database, with their stored captures, and so does the inventory its matrix names
   * when {@code --hosts} gives none; a worker resumes its claims so.
   */
  static int resume(RunOptions options, String experiment, PrintWriter out, Watch watch) {
    if (!options.db.isUrl() && Files.exists(options.db.path())) {
      StoredSteps.requireTrusted(options.db.path());
    }
    StoredExperiment stored;
    Matrix matrix;
    Inventory inventory;
    try (ResultStore store = Databases.open(options.db, null)) {
      stored =
          store
              .findExperiment(experiment)
              .orElseThrow(
                  () ->
                      new TunelabException(
                          TunelabException.BAD_INPUT,
                          "no experiment '" + experiment + "' in " + options.db.given()));
      if (stored.status() == ExperimentStatus.FINISHED) {
        throw new TunelabException(
            TunelabException.BAD_INPUT,
            "experiment "
                + stored.id()
                + " ("
                + stored.name()
                + ") is finished: nothing to resume");
      }
      matrix = StoredSteps.matrix(store, stored);
      Captures.recheck(store, stored.id(), matrix);
      inventory = Inventories.forStored(options.hosts, matrix, store.files(stored.id()));
    }
    return ExperimentSession.execute(
        matrix, inventory, options.db, stored, options.recovery, options.keepKernel, out, watch);
  }
}
