package io.tunelab.cli;

import io.tunelab.matrix.Matrix;
import io.tunelab.plan.ExperimentPlan;
import io.tunelab.store.ExperimentQueue;
import io.tunelab.store.StoredFile;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tunelab submit MATRIX --queue NAME}: plans an experiment and queues it for a worker. */
@Command(
    name = "submit",
    mixinStandardHelpOptions = true,
    description = {
      "Plan an experiment matrix and queue it in a PostgreSQL database (--db URL) for a"
          + " worker of the queue: tunelab worker --queue NAME runs it on its testbed. Nothing"
          + " is sent to any host here.",
      "The experiment is stored planned, with every trial pending, and queued; status lists it."
    })
final class SubmitCommand implements Callable<Integer> {
  @Parameters(paramLabel = "MATRIX", description = "The experiment matrix (YAML).")
  Path matrix;

  @Option(
      names = "--queue",
      required = true,
      paramLabel = "NAME",
      description = "The queue (a group of testbeds whose workers take its experiments).")
  String queue;

  @Mixin DatabaseOption db;

  @Mixin SetOption set;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    Matrix m = MatrixFiles.load(matrix, set.overrides());
    ExperimentPlan plan = ExperimentPlan.of(m);
    PrintWriter out = spec.commandLine().getOut();
    StoredFile inventory = Inventories.named(m);
    try (ExperimentQueue q = Databases.queue(db)) {
      long id =
          q.submit(
              plan,
              TunelabCommand.version(),
              queue,
              inventory == null ? List.of() : List.of(inventory));
      out.printf(
          "experiment %d (%s) queued on %s: %d cells, %d trials%n",
          id, m.name(), queue, plan.cells().size(), plan.trials().size());
    }
    return 0;
  }
}
