package io.tunelab.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code tunelab queue list|cancel|hold|release}: what an operator does to a shared queue. */
@Command(
    name = "queue",
    mixinStandardHelpOptions = true,
    description =
        "Look at and operate the queues of a PostgreSQL database (--db URL): list the queued,"
            + " claimed, held, cancelled and done experiments; cancel, hold or release one.",
    subcommands = {
      QueueListCommand.class,
      QueueCancelCommand.class,
      QueueHoldCommand.class,
      QueueReleaseCommand.class
    })
final class QueueCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
