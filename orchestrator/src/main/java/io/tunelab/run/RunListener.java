package io.tunelab.run;

import io.tunelab.store.SettingRow;
import io.tunelab.store.TrialRef;
import io.tunelab.store.TrialStatus;
import java.util.List;
import java.util.function.Consumer;

/**
 * Who watches a run as it goes: the trials as they start and end, the settings each applied, and
 * what happened to hosts. The command line draws progress and writes the log from these calls; the
 * run itself prints no progress text, and keeps its {@code events} rows itself ({@link RunEvents}).
 */
public interface RunListener {
  /** The trial loop begins: {@code trials} unfinished trials of the experiment will run in turn. */
  default void runStarted(long experimentId, int trials) {}

  /** A trial begins. */
  default void trialStarted(TrialStarted trial) {}

  /** The settings a trial applied on every host (read back), once its apply phase is over. */
  default void settingsApplied(TrialStarted trial, List<SettingRow> settings) {}

  /** A trial ended and is stored. */
  default void trialEnded(TrialEnded trial) {}

  /** Something happened to a host: a leftover restored, a restore, a warning, a reconnect. */
  default void hostEvent(String host, String message) {}

  /** Something happened to the run as a whole, such as {@code --max-time} being reached. */
  default void runEvent(String message) {}

  /** Something only a log needs, such as an event the store could not keep. */
  default void warning(String message) {}

  /**
   * One trial of the loop.
   *
   * @param index 1-based place among the trials this run has to do
   * @param total how many trials this run has to do (a resumed run: only the unfinished ones)
   */
  record TrialStarted(int index, int total, long experimentId, TrialRef trial, String cellLabel) {
    /** {@code [3/18] read_ahead_kb=512 rep 1}, with {@code (warm-up)} when it is one. */
    public String title() {
      return "["
          + index
          + "/"
          + total
          + "] "
          + cellLabel
          + " rep "
          + trial.rep()
          + (trial.warmup() ? " (warm-up)" : "");
    }
  }

  /**
   * How a trial ended.
   *
   * @param outcome what the run prints after the title: the measured time and throughput, or {@code
   *     FAILED: why}
   * @param wallSeconds the trial's wall time on the controller, apply and steps included
   */
  record TrialEnded(TrialStarted started, TrialStatus status, String outcome, double wallSeconds) {
    /** The line a run prints for the trial: {@code [3/18] … rep 1: 0.412 s, 621.3 MiB/s}. */
    public String line() {
      return started.title() + ": " + outcome;
    }
  }

  /** Prints what runs printed before listeners existed: one line per trial and per host event. */
  static RunListener printing(Consumer<String> out) {
    return new RunListener() {
      @Override
      public void trialEnded(TrialEnded trial) {
        out.accept(trial.line());
      }

      @Override
      public void hostEvent(String host, String message) {
        out.accept("host " + host + ": " + message);
      }

      @Override
      public void runEvent(String message) {
        out.accept(message);
      }
    };
  }
}
