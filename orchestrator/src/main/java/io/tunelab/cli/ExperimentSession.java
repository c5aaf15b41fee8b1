package io.tunelab.cli;

import io.tunelab.TunelabException;
import io.tunelab.inventory.Inventory;
import io.tunelab.matrix.Matrix;
import io.tunelab.remote.SshOptions;
import io.tunelab.run.ExperimentRunner;
import io.tunelab.run.RunSummary;
import io.tunelab.run.SshConnector;
import io.tunelab.store.ResultStore;
import io.tunelab.store.SqliteResultStore;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
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
      RecoveryOptions recovery,
      PrintWriter out) {
    Inventories.requireRoles(matrix, inventory);
    SqliteResultStore.checkWritable(db);
    ignoreHangup();
    try (RunLog log = RunLog.open(db, matrix.name(), out, Clock.systemUTC());
        SqliteResultStore store = SqliteResultStore.open(db);
        SshConnector connector = new SshConnector(inventory, sshOptions(recovery))) {
      log.accept("log: " + log.file());
      ExperimentRunner runner =
          new ExperimentRunner(connector, store, log, TunelabCommand.version(), recovery.reconnect);
      Thread hook =
          new Thread(
              () -> {
                log.accept("interrupted: stopping the workload, restoring every host …");
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
      log.accept(
          String.format(
              Locale.ROOT,
              "experiment %d %s: %d ok, %d failed, %d unfinished; overhead per trial %.0f ms"
                  + " (wall time minus workload time); results in %s",
              summary.experimentId(),
              summary.status(),
              summary.ok(),
              summary.failed(),
              summary.unfinished(),
              summary.overheadMillis(),
              db));
      if (summary.unfinished() > 0) {
        log.accept("continue with: tunelab resume " + summary.experimentId());
      }
      return summary.failed() > 0 || summary.unfinished() > 0 ? TunelabException.TRIALS_FAILED : 0;
    }
  }

  private static SshOptions sshOptions(RecoveryOptions recovery) {
    SshOptions options = SshOptions.fromEnvironment();
    return recovery.keepalive == null ? options : options.withKeepalive(recovery.keepalive);
  }

  /**
   * An unattended run outlives its terminal: closing it (SIGHUP) must not abort the night. Output
   * to the closed terminal is lost; the log file keeps it.
   */
  @SuppressWarnings("restriction")
  private static void ignoreHangup() {
    try {
      sun.misc.Signal.handle(new sun.misc.Signal("HUP"), sun.misc.SignalHandler.SIG_IGN);
    } catch (IllegalArgumentException noSuchSignal) {
      // not a POSIX platform: nothing to ignore
    }
  }
}
