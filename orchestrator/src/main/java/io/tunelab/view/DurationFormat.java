package io.tunelab.view;

import java.time.Duration;

/** A duration as people read it in progress lines and status: {@code 3m12s}. */
public final class DurationFormat {
  private DurationFormat() {}

  /** {@code 45s}, {@code 3m12s}, {@code 2h05m}, {@code 3d04h}: two units at most, rounded down. */
  public static String format(Duration d) {
    long s = Math.max(0, d.getSeconds());
    if (s < 60) {
      return s + "s";
    }
    // Not String.format: a run prints two per trial, before the formatter is compiled.
    if (s < 3600) {
      return s / 60 + "m" + twoDigits(s % 60) + "s";
    }
    if (s < 86400) {
      return s / 3600 + "h" + twoDigits(s % 3600 / 60) + "m";
    }
    return s / 86400 + "d" + twoDigits(s % 86400 / 3600) + "h";
  }

  private static String twoDigits(long v) {
    return v < 10 ? "0" + v : Long.toString(v);
  }
}
