package io.tunelab.cli;

import io.tunelab.TunelabException;
import io.tunelab.inventory.Inventory;
import io.tunelab.matrix.Matrix;
import io.tunelab.remote.SshOptions;
import io.tunelab.run.ExperimentRunner;
import io.tunelab.run.RunSummary;
import io.tunelab.run.SshConnector;
import io.tunelab.store.ExperimentQueue.Claim;
import io.tunelab.store.ResultStore;
import io.tunelab.store.StoredExperiment;
import io.tunelab.trace.PhaseTrace;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * What {@code run} and {@code resume} share: the store, the runner, the log and the progress bar,
 * Ctrl-C handling, and the closing table.
 */
final class ExperimentSession {
  private ExperimentSession() {}

  /**
   * How the run is watched and bounded.
   *
   * @param terminal whether the output is a terminal (a progress bar) or not (timestamped lines)
   * @param maxTime {@code --max-time}: no trial starts after it has passed; null for none
   * @param claim a worker's claim of the experiment: once another worker or an operator takes it,
   *     every write is refused and the run stops; null outside a worker
   */
  record Watch(boolean terminal, Duration maxTime, Claim claim) {
    /** A run outside any queue. */
    Watch(boolean terminal, Duration maxTime) {
      this(terminal, maxTime, null);
    }
  }

  /** Runs (or, with {@code resumed}, continues) an experiment; returns the exit code. */
  static int execute(
      Matrix matrix,
      Inventory inventory,
      DatabaseOption db,
      StoredExperiment resumed,
      RecoveryOptions recovery,
      boolean keepKernel,
      PrintWriter out,
      Watch watch) {
    Inventories.requireRoles(matrix, inventory);
    Databases.checkWritable(db);
    // A run on a PostgreSQL database logs where an SQLite run beside ./tunelab.db would.
    Path logBeside = db.isUrl() ? Path.of("tunelab.db") : db.path();
    ignoreHangup();
    Clock clock = Clock.systemUTC();
    try (RunLog log = RunLog.open(logBeside, matrix.name(), out, clock, watch.terminal());
        ResultStore store = Databases.open(db, testbed(inventory), watch.claim());
        SshConnector connector = new SshConnector(inventory, sshOptions(recovery));
        RunProgress progress = new RunProgress(log, clock, columns());
        PhaseTrace trace = trace()) {
      log.accept("log: " + log.file());
      ExperimentRunner runner =
          new ExperimentRunner(
              connector,
              store,
              log,
              TunelabCommand.version(),
              new ExperimentRunner.Options(progress, clock, watch.maxTime(), recovery.reconnect));
      runner.traced(trace).keepingKernels(keepKernel);
      if (runner.deadline() != null) {
        log.accept(
            "max time "
                + DurationText.format(watch.maxTime())
                + ": no trial starts after "
                + runner.deadline().truncatedTo(ChronoUnit.SECONDS));
      }
      Thread hook = new Thread(() -> runner.interrupt(Duration.ofMinutes(2)), "tunelab-interrupt");
      Runtime.getRuntime().addShutdownHook(hook);
      RunSummary summary;
      try {
        summary = resumed == null ? runner.run(matrix) : runner.resume(resumed, matrix);
      } catch (RuntimeException e) {
        log.logOnly("error: " + e.getMessage());
        throw e;
      } finally {
        progress.close();
        try {
          Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
          // Ctrl-C: the hook is running and waits for the restore that just finished
        }
      }
      out.println();
      out.print(ReportCommand.render(store, summary.experimentId()));
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
              db.given()));
      if (summary.unfinished() > 0) {
        log.accept("continue with: tunelab resume " + summary.experimentId());
      }
      return summary.failed() > 0 || summary.unfinished() > 0 ? TunelabException.TRIALS_FAILED : 0;
    }
  }

  /** What a shared database records as the testbed of a new experiment. */
  private static String testbed(Inventory inventory) {
    return TestbedName.of(null, inventory.source() == null ? null : Path.of(inventory.source()));
  }

  /** {@code TUNELAB_TRACE=FILE}: each trial's phases timed into FILE (docs/performance.md). */
  private static PhaseTrace trace() {
    String file = System.getenv(PhaseTrace.VARIABLE);
    if (file == null || file.isBlank()) {
      return PhaseTrace.off();
    }
    try {
      return PhaseTrace.toFile(Path.of(file));
    } catch (IOException e) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          "cannot write the trace file " + file + " (" + PhaseTrace.VARIABLE + "): " + e);
    }
  }

  /** The terminal's width for the progress bar: {@code $COLUMNS} when the shell exports it. */
  private static int columns() {
    try {
      return Integer.parseInt(System.getenv().getOrDefault("COLUMNS", "80").trim());
    } catch (NumberFormatException e) {
      return 80;
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
