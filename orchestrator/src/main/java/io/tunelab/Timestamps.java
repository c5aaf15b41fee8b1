package io.tunelab;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Stamps created_at, started_at, finished_at … and the lines of a run's log: ISO-8601 in UTC with
 * milliseconds.
 */
public final class Timestamps {
  private static final DateTimeFormatter ISO_UTC =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
  private static final String SHAPE = "0000-00-00T00:00:00.000Z";

  private final Clock clock;

  public Timestamps(Clock clock) {
    this.clock = clock;
  }

  /** The clock's time, e.g. {@code 2024-05-01T12:00:00.000Z}. */
  public String now() {
    return of(clock.instant());
  }

  /**
   * {@code instant} in the same form. Filled in digit by digit: every trial's commit stamps several
   * times, in a JVM that runs the formatter too few times to compile it, where it costs several
   * times as much (docs/performance.md).
   */
  public static String of(Instant instant) {
    LocalDateTime t = LocalDateTime.ofEpochSecond(instant.getEpochSecond(), 0, ZoneOffset.UTC);
    if (t.getYear() < 0 || t.getYear() > 9999) {
      return ISO_UTC.format(instant);
    }
    char[] c = SHAPE.toCharArray();
    digits(c, 0, 4, t.getYear());
    digits(c, 5, 2, t.getMonthValue());
    digits(c, 8, 2, t.getDayOfMonth());
    digits(c, 11, 2, t.getHour());
    digits(c, 14, 2, t.getMinute());
    digits(c, 17, 2, t.getSecond());
    digits(c, 20, 3, instant.getNano() / 1_000_000);
    return new String(c);
  }

  /** {@code instant} to the second, {@code 2024-05-01T12:00:00Z}: the time of day on a line. */
  public static String toSecond(Instant instant) {
    String millis = of(instant);
    return millis.substring(0, millis.length() - ".000Z".length()) + "Z";
  }

  private static void digits(char[] c, int at, int width, int value) {
    for (int i = at + width - 1; i >= at; i--) {
      c[i] = (char) ('0' + value % 10);
      value /= 10;
    }
  }
}
