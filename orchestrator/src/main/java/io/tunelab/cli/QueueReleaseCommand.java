package io.tunelab.cli;

import io.tunelab.store.ExperimentQueue.Operation;
import picocli.CommandLine.Command;

/** {@code tunelab queue release ID}. */
@Command(
    name = "release",
    mixinStandardHelpOptions = true,
    description = "Queue a held experiment again, with its count of refusals cleared.")
final class QueueReleaseCommand extends QueueOperationCommand {
  @Override
  Operation operation() {
    return Operation.RELEASE;
  }
}
