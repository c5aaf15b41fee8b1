package io.tunelab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Numbers round on the digits of the shortest decimal form exactly as BigDecimal does. */
class NumbersTest {
  @Test
  void roundsHalfUpWithCarriesPaddingAndUnsignedZero() {
    assertEquals("1.000", Numbers.fixed(0.9995));
    assertEquals("100.000", Numbers.fixed(99.9996));
    assertEquals("-10.000", Numbers.fixed(-9.9995));
    assertEquals("0.000", Numbers.fixed(-0.0004));
    assertEquals("0.000", Numbers.fixed(-0.0));
    assertEquals("2.500", Numbers.fixed(2.5));
    assertEquals("0.001", Numbers.fixed(0.0005));
    assertEquals("0.000", Numbers.fixed(1e-4));
    assertEquals("12345678.900", Numbers.fixed(1.23456789e7));
    assertEquals("3", Numbers.decimals(2.5, 0));
    assertEquals("NaN", Numbers.fixed(Double.NaN));
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
            Numbers.decimals(v, places),
            v + " to " + places + " places");
      }
    }
  }
}
