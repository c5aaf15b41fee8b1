package io.tunelab.cli;

import io.tunelab.run.RunListener;
import io.tunelab.store.SettingRow;
import io.tunelab.store.TrialStatus;
import io.tunelab.view.ProgressLine;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * What a person and the log file learn of a run: a progress bar on a terminal (timestamped trial
 * lines elsewhere) with its ETA, and every trial's start, settings and end in the log. The run
 * keeps its events in the database itself.
 */
final class RunProgress implements RunListener, AutoCloseable {
  private final RunLog log;
  private final Clock clock;
  private final int width;
  private ScheduledExecutorService ticker;
  private Instant runStart;
  private int total;
  private int done;
  private int failed;
  private Duration wallOfEnded = Duration.ZERO;
  private TrialStarted current;
  private Instant currentStart;

  /**
   * @param width the terminal's columns, for the bar
   */
  RunProgress(RunLog log, Clock clock, int width) {
    this.log = log;
    this.clock = clock;
    this.width = width;
  }

  @Override
  public synchronized void runStarted(long experimentId, int trials) {
    this.total = trials;
    this.runStart = clock.instant();
    if (log.interactive() && ticker == null) {
      // The elapsed time and the ETA move between trials too.
      ticker =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "tunelab-progress");
                t.setDaemon(true);
                return t;
              });
      ticker.scheduleAtFixedRate(this::redraw, 1, 1, TimeUnit.SECONDS);
    }
    redraw();
  }

  @Override
  public synchronized void trialStarted(TrialStarted trial) {
    current = trial;
    currentStart = clock.instant();
    log.logOnly("trial " + trial.trial().trialId() + " started: " + trial.title());
    redraw();
  }

  @Override
  public void settingsApplied(TrialStarted trial, List<SettingRow> settings) {
    Map<String, List<SettingRow>> byHost =
        settings.stream()
            .collect(
                Collectors.groupingBy(SettingRow::host, LinkedHashMap::new, Collectors.toList()));
    byHost.forEach(
        (host, rows) ->
            log.logOnly(
                "trial "
                    + trial.trial().trialId()
                    + " host "
                    + host
                    + " settings: "
                    + rows.stream().map(RunProgress::describe).collect(Collectors.joining(", "))));
  }

  private static String describe(SettingRow s) {
    return s.knob()
        + "="
        + s.requested()
        + " (read back "
        + s.effective()
        + (s.written() ? ", written)" : ", unchanged)");
  }

  @Override
  public void trialEnded(TrialEnded trial) {
    String line;
    synchronized (this) {
      done++;
      if (trial.status() == TrialStatus.FAILED) {
        failed++;
      }
      wallOfEnded = wallOfEnded.plus(Duration.ofNanos((long) (trial.wallSeconds() * 1e9)));
      current = null;
      line = trial.line() + " (" + snapshot().tail() + ")";
    }
    log.logOnly("trial " + trial.started().trial().trialId() + " ended " + trial.status());
    if (trial.status() == TrialStatus.FAILED && log.interactive()) {
      log.accept(line);
    } else {
      log.progress(line);
    }
    redraw();
  }

  @Override
  public void hostEvent(String host, String message) {
    log.accept("host " + host + ": " + message);
  }

  @Override
  public void runEvent(String message) {
    log.accept(message);
  }

  @Override
  public void warning(String message) {
    log.logOnly("warning: " + message);
  }

  /** The progress now, for the bar and the trial lines. */
  synchronized ProgressLine snapshot() {
    Instant now = clock.instant();
    Duration soFar = current == null ? Duration.ZERO : Duration.between(currentStart, now);
    return new ProgressLine(
        done,
        total,
        failed,
        runStart == null ? Duration.ZERO : Duration.between(runStart, now),
        ProgressLine.eta(wallOfEnded, done, total - done, soFar),
        current == null ? null : current.cellLabel() + " rep " + current.trial().rep());
  }

  private void redraw() {
    if (log.interactive() && runStart != null) {
      log.bar(snapshot().bar(width));
    }
  }

  /** Stops the bar, leaving the terminal's last line empty for what follows. */
  @Override
  public synchronized void close() {
    if (ticker != null) {
      ticker.shutdownNow();
      ticker = null;
    }
    log.bar(null);
  }
}
