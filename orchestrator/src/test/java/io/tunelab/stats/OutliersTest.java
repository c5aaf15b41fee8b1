package io.tunelab.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The modified z-score of Iglewicz and Hoaglin, "How to Detect and Handle Outliers" (1993): {@code
 * 0.6745 (x - median) / MAD}; expected scores computed with NumPy's median.
 */
class OutliersTest {
  @Test
  void oneWildRepetitionAmongSeven() {
    double[] values = {2.1, 2.3, 2.2, 2.25, 2.15, 9.8, 2.2};

    double[] scores = Outliers.scores(values);

    assertArrayEquals(new double[] {-1.349, 1.349, 0, 0.6745, -0.6745, 102.524, 0}, scores, 1e-9);
    assertEquals(List.of(5), Outliers.positions(values));
  }

  @Test
  void theDesignExampleFlagsItsSlowRead() {
    // 63.733, 60.653 and 63.618 MiB/s: MAD 0.115, so the 5 % slower read scores -17.4.
    double gib = 1024.0 * 1024 * 1024;
    double[] mibPerS = {gib / 16.067 / 1048576, gib / 16.883 / 1048576, gib / 16.096 / 1048576};

    assertEquals(-17.42, Outliers.scores(mibPerS)[1], 0.01);
    assertEquals(List.of(1), Outliers.positions(mibPerS));
  }

  @Test
  void withMostValuesEqualTheMeanAbsoluteDeviationStandsIn() {
    // MAD is 0; mean absolute deviation 2/3, scaled by 1.253314: (12 - 10) / 0.8355 = 2.39.
    double[] values = {10, 10, 12};

    assertEquals(2.3937, Outliers.scores(values)[2], 1e-4);
    assertEquals(List.of(), Outliers.positions(values));
  }

  @Test
  void nothingVariesNothingStandsOut() {
    assertArrayEquals(new double[] {0, 0, 0}, Outliers.scores(new double[] {4, 4, 4}));
  }

  @Test
  void twoValuesAreTooFewToJudge() {
    assertEquals(List.of(), Outliers.positions(new double[] {1, 100}));
  }
}
