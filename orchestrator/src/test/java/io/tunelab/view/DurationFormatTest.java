package io.tunelab.view;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class DurationFormatTest {
  @Test
  void twoUnitsAtMostRoundedDown() {
    assertEquals("0s", DurationFormat.format(Duration.ofSeconds(-5)));
    assertEquals("59s", DurationFormat.format(Duration.ofMillis(59_999)));
    assertEquals("1m00s", DurationFormat.format(Duration.ofSeconds(60)));
    assertEquals("59m59s", DurationFormat.format(Duration.ofSeconds(3599)));
    assertEquals("1h00m", DurationFormat.format(Duration.ofSeconds(3600)));
    assertEquals("23h59m", DurationFormat.format(Duration.ofSeconds(86_399)));
    assertEquals("1d00h", DurationFormat.format(Duration.ofDays(1)));
    assertEquals("3d04h", DurationFormat.format(Duration.ofHours(76).plusMinutes(59)));
  }

  @Test
  void everySecondOfTwoDaysIsWhatTheFormatterPrinted() {
    for (long s = 60; s < 2 * 86_400; s++) {
      String expected =
          s < 3600
              ? String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60)
              : s < 86_400
                  ? String.format(Locale.ROOT, "%dh%02dm", s / 3600, s % 3600 / 60)
                  : String.format(Locale.ROOT, "%dd%02dh", s / 86_400, s % 86_400 / 3600);
      assertEquals(expected, DurationFormat.format(Duration.ofSeconds(s)), s + " s");
    }
  }
}
