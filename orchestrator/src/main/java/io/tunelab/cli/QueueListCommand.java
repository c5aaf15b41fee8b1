package io.tunelab.cli;

import io.tunelab.store.ExperimentQueue;
import io.tunelab.view.QueueText;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tunelab queue list [--queue NAME] [--format table|json]}. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description =
        "Every experiment of the queues, oldest first: its queue state (queued, claimed, held,"
            + " cancelled, done), experiment status, testbed, worker and lease, claims, refusals"
            + " in a row and the reason it is held or cancelled.")
final class QueueListCommand implements Callable<Integer> {
  @Option(names = "--queue", paramLabel = "NAME", description = "This queue only.")
  String queue;

  @Mixin DatabaseOption db;

  @Mixin FormatOption format;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    boolean json = format.json();
    try (ExperimentQueue q = Databases.queue(db)) {
      spec.commandLine()
          .getOut()
          .print(json ? QueueText.json(q.entries(queue)) : QueueText.table(q.entries(queue)));
    }
    return 0;
  }
}
