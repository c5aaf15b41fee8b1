package io.tunelab.store;

import java.util.Locale;

/**
 * Where a trial stands, as {@code trials.status} spells it. Declared in the order that counts and
 * reports list them: finished first, then what has not run.
 */
public enum TrialStatus {
  OK,
  FAILED,
  SKIPPED,
  /** Planned, not started. */
  PENDING,
  /** Started; still so after a crash, until {@code resume} runs it again. */
  RUNNING;

  private final String text = name().toLowerCase(Locale.ROOT);

  /** The status as the database and every output spell it: {@code ok}, {@code failed} … */
  public String text() {
    return text;
  }

  /** Whether a trial in this status still has to run: pending, or running when interrupted. */
  public boolean unfinished() {
    return this == PENDING || this == RUNNING;
  }

  /** Whether a trial can end in this status: ok, failed or skipped. */
  public boolean finished() {
    return !unfinished();
  }

  /** The status spelled {@code text}; anything else is a bug or a foreign database. */
  public static TrialStatus of(String text) {
    for (TrialStatus s : values()) {
      if (s.text.equals(text)) {
        return s;
      }
    }
    throw new IllegalArgumentException("no trial status " + text);
  }

  // Messages concatenate statuses: they must read as the database text, not the constant.
  @Override
  public String toString() {
    return text;
  }
}
