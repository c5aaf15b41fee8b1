package io.tunelab.cli;

import io.tunelab.TunelabException;
import io.tunelab.inventory.Inventory;
import io.tunelab.matrix.Matrix;
import io.tunelab.run.ExperimentRunner;
import io.tunelab.run.RunSummary;
import io.tunelab.run.SshConnector;
import io.tunelab.store.ResultStore;
import io.tunelab.store.SqliteResultStore;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * What {@code run} and {@code resume} share: the store, the runner, Ctrl-C handling, and the
 * closing table.
 */
final class ExperimentSession {
  private ExperimentSession() {}

  /** Runs (or, with {@code resumed}, continues) an experiment; returns the exit code. */
  static int execute(
      Matrix matrix,
      Inventory inventory,
      Path db,
      ResultStore.StoredExperiment resumed,
      PrintWriter out) {
    Inventories.requireRoles(matrix, inventory);
    SqliteResultStore.checkWritable(db);
    try (SqliteResultStore store = SqliteResultStore.open(db);
        SshConnector connector = new SshConnector(inventory)) {
      ExperimentRunner runner =
          new ExperimentRunner(connector, store, out::println, TunelabCommand.version());
      Thread hook =
          new Thread(
              () -> {
                out.println("interrupted: stopping the workload, restoring every host …");
                runner.interrupt(Duration.ofMinutes(2));
              },
              "tunelab-interrupt");
      Runtime.getRuntime().addShutdownHook(hook);
      RunSummary summary;
      try {
        summary = resumed == null ? runner.run(matrix) : runner.resume(resumed, matrix);
      } finally {
        try {
          Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
          // Ctrl-C: the hook is running and waits for the restore that just finished
        }
      }
      out.println();
      out.print(ReportCommand.render(store, db, summary.experimentId()));
      out.printf(
          Locale.ROOT,
          "experiment %d %s: %d ok, %d failed, %d unfinished; overhead per trial %.0f ms"
              + " (wall time minus workload time); results in %s%n",
          summary.experimentId(),
          summary.status(),
          summary.ok(),
          summary.failed(),
          summary.unfinished(),
          summary.overheadMillis(),
          db);
      if (summary.unfinished() > 0) {
        out.println("continue with: tunelab resume " + summary.experimentId());
      }
      return summary.failed() > 0 || summary.unfinished() > 0 ? TunelabException.TRIALS_FAILED : 0;
    }
  }
}
