package io.tunelab.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Durations as people type and read them: {@code 30s}, {@code 5m}, {@code 2h}, {@code 1h30m},
 * {@code 1d}.
 */
final class DurationText implements ITypeConverter<Duration> {
  private static final Pattern WHOLE = Pattern.compile("(?:\\d+[dhms])+");
  private static final Pattern PART = Pattern.compile("(\\d+)([dhms])");

  @Override
  public Duration convert(String text) {
    return parse(text);
  }

  /** The duration {@code text} spells; anything else, or zero, fails with what is accepted. */
  static Duration parse(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    if (!WHOLE.matcher(t).matches()) {
      throw new TypeConversionException(
          "'" + text + "' is not a duration: write e.g. 30s, 5m, 2h, 1h30m or 1d");
    }
    Duration d = Duration.ZERO;
    Matcher m = PART.matcher(t);
    try {
      while (m.find()) {
        long n = Long.parseLong(m.group(1));
        d =
            d.plus(
                switch (m.group(2)) {
                  case "d" -> Duration.ofDays(n);
                  case "h" -> Duration.ofHours(n);
                  case "m" -> Duration.ofMinutes(n);
                  default -> Duration.ofSeconds(n);
                });
      }
    } catch (ArithmeticException | NumberFormatException e) {
      throw new TypeConversionException("'" + text + "' is too long a duration");
    }
    if (d.isZero()) {
      throw new TypeConversionException("'" + text + "': a duration must be more than zero");
    }
    return d;
  }

  /** See {@link io.tunelab.view.DurationFormat#format}. */
  static String format(Duration d) {
    return io.tunelab.view.DurationFormat.format(d);
  }
}
