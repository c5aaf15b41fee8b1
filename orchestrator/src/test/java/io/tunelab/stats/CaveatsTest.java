package io.tunelab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CaveatsTest {
  @Test
  void twoQuietRepetitionsAreTooFew() {
    Caveats c = Caveats.of(new double[] {100, 101});

    assertTrue(c.tooFew());
    assertFalse(c.noisy());
    assertTrue(c.any());
  }

  @Test
  void aCoefficientOfVariationAboveFivePercentIsNoisy() {
    // mean 100, population std sqrt(2/3 * 36) = 4.899 -> 4.9 %: quiet; 6 % -> noisy.
    assertFalse(Caveats.of(new double[] {94, 100, 106}).noisy());
    Caveats noisy = Caveats.of(new double[] {92, 100, 108});
    assertEquals(0.0653, noisy.cv(), 1e-4);
    assertTrue(noisy.noisy());
    assertFalse(noisy.tooFew());
  }

  @Test
  void outliersArePositionsInTheValuesGiven() {
    Caveats c = Caveats.of(new double[] {2.1, 2.3, 2.2, 2.25, 2.15, 9.8, 2.2});

    assertEquals(1, c.outliers().size());
    assertEquals(5, c.outliers().get(0).position());
    assertEquals(9.8, c.outliers().get(0).value());
  }

  @Test
  void nothingMeasuredNothingToSay() {
    Caveats c = Caveats.of(new double[0]);

    assertFalse(c.any());
    assertEquals(0, c.n());
  }
}
