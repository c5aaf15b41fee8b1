package io.tunelab;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TimestampsTest {
  private static final DateTimeFormatter REFERENCE =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  @Test
  void aStampIsTheFormattersToTheMillisecond() {
    List<Instant> instants =
        new ArrayList<>(
            List.of(
                Instant.EPOCH,
                Instant.parse("1969-12-31T23:59:59.999999999Z"),
                Instant.parse("0001-01-01T00:00:00Z"),
                Instant.parse("0999-03-04T05:06:07.008Z"),
                Instant.parse("2024-02-29T23:59:59.999Z"),
                Instant.parse("2026-12-05T00:45:16.000500Z"),
                Instant.parse("9999-12-31T23:59:59.999Z"),
                Instant.parse("+10000-01-01T00:00:00Z"),
                Instant.parse("-0001-06-15T12:00:00Z")));
    SplittableRandom random = new SplittableRandom(20261205);
    for (int i = 0; i < 10_000; i++) {
      instants.add(
          Instant.ofEpochSecond(
              random.nextLong(-62_135_596_800L, 253_402_300_800L), random.nextInt(1_000_000_000)));
    }
    for (Instant instant : instants) {
      assertEquals(REFERENCE.format(instant), Timestamps.of(instant), instant.toString());
      if (instant.atOffset(ZoneOffset.UTC).getYear() >= 0
          && instant.atOffset(ZoneOffset.UTC).getYear() <= 9999) {
        assertEquals(
            instant.truncatedTo(ChronoUnit.SECONDS).toString(),
            Timestamps.toSecond(instant),
            instant.toString());
      }
    }
  }

  @Test
  void nowIsTheClocksInstant() {
    assertEquals(
        "2024-05-01T12:00:00.250Z",
        new Timestamps(Clock.fixed(Instant.parse("2024-05-01T12:00:00.250Z"), ZoneOffset.UTC))
            .now());
  }
}
