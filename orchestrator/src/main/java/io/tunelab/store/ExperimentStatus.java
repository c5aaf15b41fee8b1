package io.tunelab.store;

import java.util.Locale;

/** Where an experiment stands, as {@code experiments.status} spells it. */
public enum ExperimentStatus {
  /** Written, not started. */
  PLANNED,
  RUNNING,
  /** Every trial ran (some may have failed). */
  FINISHED,
  /** Stopped by an error of the run itself. */
  FAILED,
  /** Stopped by Ctrl-C, {@code --max-time} or a crash; {@code resume} goes on. */
  INTERRUPTED;

  private final String text = name().toLowerCase(Locale.ROOT);

  /** The status as the database and every output spell it: {@code running}, {@code finished} … */
  public String text() {
    return text;
  }

  /** The status spelled {@code text}; anything else is a bug or a foreign database. */
  public static ExperimentStatus of(String text) {
    for (ExperimentStatus s : values()) {
      if (s.text.equals(text)) {
        return s;
      }
    }
    throw new IllegalArgumentException("no experiment status " + text);
  }

  // Messages concatenate statuses: they must read as the database text, not the constant.
  @Override
  public String toString() {
    return text;
  }
}
