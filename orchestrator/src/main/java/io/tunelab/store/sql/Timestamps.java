package io.tunelab.store.sql;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Stamps created_at, started_at, finished_at …: ISO-8601 in UTC with milliseconds. */
public final class Timestamps {
  private static final DateTimeFormatter ISO_UTC =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private final Clock clock;

  public Timestamps(Clock clock) {
    this.clock = clock;
  }

  /** The clock's time, e.g. {@code 2024-05-01T12:00:00.000Z}. */
  public String now() {
    return of(clock.instant());
  }

  /** {@code instant} in the same form. */
  public static String of(Instant instant) {
    return ISO_UTC.format(instant);
  }
}
