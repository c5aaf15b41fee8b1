package io.tunelab.matrix;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as a matrix writes them: a whole number and a unit, {@code 500ms}, {@code 30s}, … */
public final class Durations {
  private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h)");

  private Durations() {}

  /**
   * Parses a duration of more than 0.
   *
   * @throws IllegalArgumentException with a one-line message naming the accepted forms
   */
  public static Duration parse(String text) {
    Matcher m = DURATION.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "'"
              + text
              + "' is not a duration: write a whole number followed by ms, s, m or h"
              + " (500ms, 30s, 5m, 2h)");
    }
    long n = Long.parseLong(m.group(1));
    if (n == 0) {
      throw new IllegalArgumentException("a duration must be more than 0");
    }
    return switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      default -> Duration.ofHours(n);
    };
  }

  /** The duration as a matrix would write it, in its largest whole unit. */
  public static String format(Duration d) {
    long ms = d.toMillis();
    if (ms % 3_600_000 == 0) {
      return ms / 3_600_000 + "h";
    }
    if (ms % 60_000 == 0) {
      return ms / 60_000 + "m";
    }
    return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
  }
}
