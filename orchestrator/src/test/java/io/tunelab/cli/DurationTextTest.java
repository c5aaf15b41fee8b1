package io.tunelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

class DurationTextTest {
  @Test
  void readsDurationsAsPeopleWriteThem() {
    assertEquals(Duration.ofSeconds(30), DurationText.parse("30s"));
    assertEquals(Duration.ofMinutes(5), DurationText.parse("5m"));
    assertEquals(Duration.ofHours(10), DurationText.parse("10h"));
    assertEquals(Duration.ofMinutes(90), DurationText.parse("1h30m"));
    assertEquals(Duration.ofDays(1), DurationText.parse("1D"));
  }

  @Test
  void refusesWhatIsNotADurationSayingWhatIs() {
    for (String bad : new String[] {"", "10", "h", "1.5h", "PT1H", "-5m", "0s", "5 m"}) {
      TypeConversionException e =
          assertThrows(TypeConversionException.class, () -> DurationText.parse(bad), bad);
      assertTrue(e.getMessage().contains("30s") || e.getMessage().contains("zero"), bad);
    }
  }

  @Test
  void printsTwoUnitsAtMost() {
    assertEquals("0s", DurationText.format(Duration.ZERO));
    assertEquals("45s", DurationText.format(Duration.ofMillis(45_900)));
    assertEquals("3m07s", DurationText.format(Duration.ofSeconds(187)));
    assertEquals("2h05m", DurationText.format(Duration.ofMinutes(125).plusSeconds(59)));
    assertEquals("3d04h", DurationText.format(Duration.ofHours(76)));
    assertEquals("0s", DurationText.format(Duration.ofSeconds(-3)));
  }
}
