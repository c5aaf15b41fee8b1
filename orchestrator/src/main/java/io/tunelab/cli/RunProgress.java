package io.tunelab.cli;

import io.tunelab.run.RunListener;
import io.tunelab.store.RunStore;
import io.tunelab.store.SettingRow;
import io.tunelab.store.TrialStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.stream.Collectors;

/**
 * What a person, the log file and {@code tunelab status} learn of a run: a progress bar on a
 * terminal (timestamped trial lines elsewhere), every trial's start, settings and end in the log,
 * and the run's events in the database for another process to read.
 */
final class RunProgress implements RunListener, AutoCloseable {
  private final RunLog log;
  private final RunStore store;
  private final Clock clock;
  private final int width;
  private final Duration maxTime;
  private ScheduledExecutorService ticker;
  private long experimentId = -1;
  private Instant runStart;
  private int total;
  private int done;
  private int failed;
  private Duration wallOfEnded = Duration.ZERO;
  private TrialStarted current;
  private Instant currentStart;

  /**
   * @param width the terminal's columns, for the bar
   * @param maxTime the run's {@code --max-time}, or null
   */
  RunProgress(RunLog log, RunStore store, Clock clock, int width, Duration maxTime) {
    this.log = log;
    this.store = store;
    this.clock = clock;
    this.width = width;
    this.maxTime = maxTime;
  }

  /** Where the run's other lines go: printed, logged, and kept as the experiment's last event. */
  Consumer<String> printer() {
    return line -> {
      log.accept(line);
      record("message", null, line);
    };
  }

  @Override
  public synchronized void runStarted(long experimentId, int trials) {
    this.experimentId = experimentId;
    this.total = trials;
    this.runStart = clock.instant();
    record(
        "start",
        null,
        "run started: "
            + trials
            + " trial(s) to run, controller pid "
            + ProcessHandle.current().pid()
            + (maxTime == null ? "" : ", --max-time " + DurationText.format(maxTime)));
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
    record("host", host, message);
  }

  @Override
  public void runEvent(String message) {
    log.accept(message);
    record("run", null, message);
  }

  /** The error that ends the run: logged (the terminal gets it from Main) and kept. */
  void error(String message) {
    log.logOnly("error: " + message);
    record("error", null, message);
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

  /**
   * Keeps an event for {@code tunelab status}. The run matters more than its events: one that
   * cannot be written (a full disk) is only logged.
   */
  private void record(String kind, String host, String message) {
    keep(id -> store.recordEvent(id, kind, host, message));
  }

  private void keep(LongConsumer write) {
    long id;
    synchronized (this) {
      id = experimentId;
    }
    if (id < 0) {
      return;
    }
    try {
      write.accept(id);
    } catch (RuntimeException e) {
      log.logOnly("warning: event not stored in the database: " + e.getMessage());
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
