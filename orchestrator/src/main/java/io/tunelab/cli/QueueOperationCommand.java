package io.tunelab.cli;

import io.tunelab.store.ExperimentQueue;
import io.tunelab.store.ExperimentQueue.Entry;
import io.tunelab.store.ExperimentQueue.Operation;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** What {@code queue cancel}, {@code hold} and {@code release} share: one row changed, shown. */
abstract class QueueOperationCommand implements Callable<Integer> {
  @Parameters(paramLabel = "ID", description = "The experiment's id.")
  long experimentId;

  @Option(
      names = "--reason",
      paramLabel = "TEXT",
      description = "Why, as queue list and status show it (default: who did it, and when).")
  String reason;

  @Mixin DatabaseOption db;

  @Spec CommandSpec spec;

  abstract Operation operation();

  @Override
  public Integer call() {
    String why =
        reason != null
            ? reason
            : operation().name().toLowerCase(java.util.Locale.ROOT)
                + " by "
                + System.getProperty("user.name")
                + "@"
                + TestbedName.host();
    try (ExperimentQueue q = Databases.queue(db)) {
      Entry e = q.operate(experimentId, operation(), why);
      spec.commandLine()
          .getOut()
          .printf("experiment %d (%s): %s%n", e.experimentId(), e.name(), e.state());
    }
    return 0;
  }
}
