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
  void belowSixRepetitionsOutliersAreNotJudged() {
    Caveats three = Caveats.of(new double[] {63.733, 60.653, 63.618});
    Caveats five = Caveats.of(new double[] {100, 100, 100, 100, 10});

    assertTrue(three.tooFewForOutliers());
    assertEquals(0, three.outliers().size());
    assertFalse(three.tooFew());
    assertTrue(three.any());
    assertTrue(five.tooFewForOutliers());
    assertEquals(0, five.outliers().size());
  }

  @Test
  void sixRepetitionsAreJudged() {
    Caveats c = Caveats.of(new double[] {100, 101, 99, 100.5, 99.5, 100.2});

    assertFalse(c.tooFewForOutliers());
    assertEquals(0, c.outliers().size());
    assertFalse(c.any());
  }

  @Test
  void outliersArePositionsInTheValuesGiven() {
    Caveats c = Caveats.of(new double[] {2.1, 2.3, 2.2, 2.25, 2.15, 9.8, 2.2});

    assertEquals(1, c.outliers().size());
    assertEquals(5, c.outliers().get(0).position());
    assertEquals(9.8, c.outliers().get(0).value());
    assertEquals(2.267, c.outliers().get(0).score(), 0.001);
  }

  @Test
  void nothingMeasuredNothingToSay() {
    Caveats c = Caveats.of(new double[0]);

    assertFalse(c.any());
    assertFalse(c.tooFewForOutliers());
    assertEquals(0, c.n());
  }
}
