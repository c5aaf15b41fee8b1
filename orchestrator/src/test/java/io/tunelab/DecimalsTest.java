package io.tunelab;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Decimals round on the digits of the shortest decimal form exactly as BigDecimal does. */
class DecimalsTest {
  @Test
  void aTrialLinesFiguresAreWhatTheFormatterPrinted() {
    Random random = new Random(5);
    for (int i = 0; i < 20_000; i++) {
      double v = i % 2 == 0 ? random.nextDouble() * 100 : random.nextDouble() * 5000;
      assertEquals(String.format(Locale.ROOT, "%.3f", v), Decimals.of(v, 3), v + " to 3 places");
      assertEquals(String.format(Locale.ROOT, "%.1f", v), Decimals.of(v, 1), v + " to 1 place");
    }
  }

  @Test
  void roundsHalfUpWithCarriesPaddingAndUnsignedZero() {
    assertEquals("1.000", Decimals.of(0.9995, 3));
    assertEquals("100.000", Decimals.of(99.9996, 3));
    assertEquals("-10.000", Decimals.of(-9.9995, 3));
    assertEquals("0.000", Decimals.of(-0.0004, 3));
    assertEquals("0.000", Decimals.of(-0.0, 3));
    assertEquals("2.500", Decimals.of(2.5, 3));
    assertEquals("0.001", Decimals.of(0.0005, 3));
    assertEquals("0.000", Decimals.of(1e-4, 3));
    assertEquals("12345678.900", Decimals.of(1.23456789e7, 3));
    assertEquals("3", Decimals.of(2.5, 0));
    assertEquals("NaN", Decimals.of(Double.NaN, 3));
  }

  @Test
  void agreesWithBigDecimal() {
    Random random = new Random(11);
    for (int i = 0; i < 50_000; i++) {
      double v =
          switch (i % 4) {
            case 0 -> random.nextDouble() * 1000;
            case 1 -> (random.nextDouble() - 0.5) * 20;
            case 2 -> Math.round(random.nextDouble() * 2e6) / 2e3 - 500;
            default -> random.nextGaussian() * 1e-2;
          };
      for (int places = 0; places <= 3; places++) {
        assertEquals(
            BigDecimal.valueOf(v).setScale(places, RoundingMode.HALF_UP).toPlainString(),
            Decimals.of(v, places),
            v + " to " + places + " places");
      }
    }
  }
}
