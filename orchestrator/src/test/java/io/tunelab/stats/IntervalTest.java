package io.tunelab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Confidence intervals of means against SciPy 1.17.1: {@code scipy.stats.t.interval(level, n - 1,
 * loc=mean, scale=scipy.stats.sem(values))}, printed with 15 significant digits.
 */
class IntervalTest {
  private static final double GIB = 1024.0 * 1024 * 1024;

  @Test
  void designExampleThreeReads() {
    Summary s =
        Summary.of(
            new double[] {GIB / 16.067 / 1048576, GIB / 16.883 / 1048576, GIB / 16.096 / 1048576});

    Interval ci95 = s.meanInterval(0.95);
    Interval ci99 = s.meanInterval(0.99);

    assertEquals(58.3300941468853, ci95.low(), 1e-8);
    assertEquals(67.0059961360684, ci95.high(), 1e-8);
    assertEquals(52.6617801373533, ci99.low(), 1e-8);
    assertEquals(72.6743101456004, ci99.high(), 1e-8);
    assertEquals((67.0059961360684 - 58.3300941468853) / 2, ci95.halfWidth(), 1e-8);
  }

  @Test
  void fifteenValues() {
    Summary s =
        Summary.of(
            new double[] {
              27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7,
              21.4
            });

    Interval ci = s.meanInterval(0.95);

    assertEquals(19.2667016524512, ci.low(), 1e-9);
    assertEquals(22.3732983475488, ci.high(), 1e-9);
    assertTrue(ci.known());
  }

  @Test
  void oneValueHasNoInterval() {
    Interval ci = Summary.of(new double[] {3}).meanInterval(0.95);

    assertFalse(ci.known());
    assertTrue(Double.isNaN(ci.low()));
  }

  @Test
  void theLevelLiesBetweenZeroAndOne() {
    assertThrows(IllegalArgumentException.class, () -> new Interval(0, 1, 95));
  }
}
