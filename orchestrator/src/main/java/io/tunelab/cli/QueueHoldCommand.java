package io.tunelab.cli;

import io.tunelab.store.ExperimentQueue.Operation;
import picocli.CommandLine.Command;

/** {@code tunelab queue hold ID}. */
@Command(
    name = "hold",
    mixinStandardHelpOptions = true,
    description =
        "Hold a queued or claimed experiment: no worker takes it until tunelab queue release; a worker that holds it stops before its next trial and restores its hosts.")
final class QueueHoldCommand extends QueueOperationCommand {
  @Override
  Operation operation() {
    return Operation.HOLD;
  }
}
