package io.tunelab.view;

import java.time.Duration;
import java.util.Locale;

/** A duration as people read it in progress lines and status: {@code 3m12s}. */
public final class DurationFormat {
  private DurationFormat() {}

  /** {@code 45s}, {@code 3m12s}, {@code 2h05m}, {@code 3d04h}: two units at most, rounded down. */
  public static String format(Duration d) {
    long s = Math.max(0, d.getSeconds());
    if (s < 60) {
      return s + "s";
    }
    if (s < 3600) {
      return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
    }
    if (s < 86400) {
      return String.format(Locale.ROOT, "%dh%02dm", s / 3600, s % 3600 / 60);
    }
    return String.format(Locale.ROOT, "%dd%02dh", s / 86400, s % 86400 / 3600);
  }
}
