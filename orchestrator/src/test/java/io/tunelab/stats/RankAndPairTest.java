package io.tunelab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** Mann–Whitney, the paired test of rounds and Stein's count, against SciPy and by hand. */
class RankAndPairTest {
  @Test
  void mannWhitneyIsExactForSmallSamples() {
    // scipy.stats.mannwhitneyu(..., method='exact')
    assertEquals(
        0.02857142857142857,
        MannWhitney.p(new double[] {1, 2, 3, 4}, new double[] {5, 6, 7, 8}),
        1e-12);
    assertEquals(0.2, MannWhitney.p(new double[] {1, 2, 3}, new double[] {2.5, 4, 5}), 1e-12);
  }

  @Test
  void pairsByRoundAreAOneSampleTestOfTheLogRatios() {
    // scipy.stats.ttest_1samp(log(y / x), 0)
    PairedRatio p =
        PairedRatio.of(new double[] {100, 102, 98, 101}, new double[] {105, 108, 101, 107}, 0.95);
    assertEquals(0.0048492331457375025, p.p(), 1e-12);
    assertEquals(7.533035908933546, p.t(), 1e-9);
    assertEquals(4.964549510288701, p.change(), 1e-9);
    assertEquals(2.837819186814067, p.interval().low(), 1e-9);
    assertEquals(7.135261531397063, p.interval().high(), 1e-9);
    assertNull(PairedRatio.of(new double[] {1}, new double[] {2}, 0.95));
  }

  @Test
  void thePilotFixesTheCountBetweenItsOwnSizeAndMax() {
    Summary pilot = Summary.of(new double[] {99, 101, 99});
    assertEquals(7, TwoStage.size(pilot, 0.02, 0.95, 12));
    assertEquals(12, TwoStage.size(pilot, 0.005, 0.95, 12));
    assertEquals(3, TwoStage.size(Summary.of(new double[] {100, 100, 100}), 0.02, 0.95, 12));
  }
}
