package io.tunelab.cli;

import io.tunelab.store.ExperimentQueue.Operation;
import picocli.CommandLine.Command;

/** {@code tunelab queue cancel ID}. */
@Command(
    name = "cancel",
    mixinStandardHelpOptions = true,
    description =
        "Cancel a queued, claimed or held experiment for good: no worker takes it again; a worker that holds it stops before its next trial and restores its hosts.")
final class QueueCancelCommand extends QueueOperationCommand {
  @Override
  Operation operation() {
    return Operation.CANCEL;
  }
}
