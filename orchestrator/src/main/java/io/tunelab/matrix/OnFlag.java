package io.tunelab.matrix;

import java.util.Locale;

/** What a run does with a trial its health checks flagged (matrix key {@code on_flag}). */
public enum OnFlag {
  /** Stored and counted like any other; every report warns about it. */
  KEEP,
  /** Run again once; the flagged run is kept as an attempt, the second one counts. */
  RERUN,
  /** Stored, but left out of the statistics. */
  EXCLUDE;

  /** As the matrix and {@code experiments.on_flag} spell it. */
  public String text() {
    return name().toLowerCase(Locale.ROOT);
  }
}
