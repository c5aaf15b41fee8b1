package io.tunelab.run;

import io.tunelab.matrix.Durations;
import io.tunelab.store.EventKind;
import io.tunelab.store.RunStore;
import io.tunelab.store.SettingRow;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * The run's {@code events} rows, written by the run itself whoever drives it: its start, host and
 * run events, the other lines it prints and the error that ends it; each trial's line goes with the
 * trial's commit ({@link TrialLoop}). Passes everything on to the listener that watches the run.
 * The run matters more than its events: one the store refuses (a full disk) is only noted.
 */
final class RunEvents implements RunListener {
  private final RunStore store;
  private final RunListener next;
  private final Duration maxTime;
  private volatile long experimentId = -1;

  /**
   * @param maxTime the run's time limit, for the start event; null for none
   */
  RunEvents(RunStore store, RunListener next, Duration maxTime) {
    this.store = store;
    this.next = next;
    this.maxTime = maxTime;
  }

  /** Where the run's other lines go: to {@code out}, and kept as {@code message} events. */
  Consumer<String> lines(Consumer<String> out) {
    return line -> {
      out.accept(line);
      record(EventKind.MESSAGE, null, line);
    };
  }

  /** Keeps the error that ends the run. */
  void error(String message) {
    record(EventKind.ERROR, null, message);
  }

  @Override
  public void runStarted(long experimentId, int trials) {
    this.experimentId = experimentId;
    record(
        EventKind.START,
        null,
        "run started: "
            + trials
            + " trial(s) to run, controller pid "
            + ProcessHandle.current().pid()
            + (maxTime == null ? "" : ", --max-time " + Durations.format(maxTime)));
    next.runStarted(experimentId, trials);
  }

  @Override
  public void trialStarted(TrialStarted trial) {
    next.trialStarted(trial);
  }

  @Override
  public void settingsApplied(TrialStarted trial, List<SettingRow> settings) {
    next.settingsApplied(trial, settings);
  }

  @Override
  public void trialEnded(TrialEnded trial) {
    next.trialEnded(trial);
  }

  @Override
  public void hostEvent(String host, String message) {
    next.hostEvent(host, message);
    record(EventKind.HOST, host, message);
  }

  @Override
  public void runEvent(String message) {
    next.runEvent(message);
    record(EventKind.RUN, null, message);
  }

  @Override
  public void warning(String message) {
    next.warning(message);
  }

  private void record(EventKind kind, String host, String message) {
    long id = experimentId;
    if (id < 0) {
      return; // before the trials: no experiment to keep it with yet
    }
    try {
      store.recordEvent(id, kind.text(), host, message);
    } catch (RuntimeException e) {
      next.warning("event not stored in the database: " + e.getMessage());
    }
  }
}
