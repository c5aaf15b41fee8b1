package io.tunelab.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RepeatRuleTest {
  private final RepeatRule rule = new RepeatRule(3, 12, 0.02, null);

  @Test
  void aQuietCellIsDoneAtMinAndNotBefore() {
    assertFalse(rule.satisfied(new double[] {100, 100}));
    assertTrue(rule.satisfied(new double[] {100, 100, 100}));
  }

  @Test
  void theHalfWidthIsTheStudentTIntervalOfTheMean() {
    // mean 100, s = sqrt(4/3), n = 4: t(0.975, 3) = 3.18245, so ±1.8374 = 1.84 % of the mean.
    double[] values = {99, 101, 99, 101};
    assertEquals(0.018374, RepeatRule.relativeHalfWidth(values), 0.00001);
  }

  @Test
  void thePilotAloneFixesTheCount() {
    // Pilot 99, 101, 99: mean 99.667, s = 1.1547, t(0.975, 2) = 4.3027; (4.3027 * 1.1547 / (0.02
    // * 99.667))² = 6.21, so 7 in all, however tight the values after the pilot are.
    double[] values = {99, 101, 99, 100, 100, 100};
    assertEquals(7, rule.planned(values));
    assertFalse(rule.satisfied(values));
    assertTrue(rule.satisfied(java.util.Arrays.copyOf(values, 7)));
    assertEquals(3, rule.planned(new double[] {100, 100.1, 100}));
    assertEquals(12, new RepeatRule(3, 12, 0.005, null).planned(values));
    assertEquals(12, rule.planned(new double[] {100, 100}));
  }

  @Test
  void aNoisyCellRunsToMaxAndIsShortOfTheTarget() {
    double[] eleven = new double[11];
    for (int i = 0; i < eleven.length; i++) {
      eleven[i] = i % 2 == 0 ? 100 : 150;
    }
    assertFalse(rule.satisfied(eleven));
    double[] twelve = java.util.Arrays.copyOf(eleven, 12);
    twelve[11] = 150;
    assertTrue(rule.satisfied(twelve));
    assertTrue(rule.shortOfTarget(12, RepeatRule.relativeHalfWidth(twelve)));
    assertFalse(rule.shortOfTarget(11, RepeatRule.relativeHalfWidth(eleven)));
  }

  @Test
  void aFixedCountNeverStopsEarly() {
    RepeatRule fixed = RepeatRule.fixed(5, null);
    assertFalse(fixed.adaptive());
    assertFalse(fixed.satisfied(new double[] {1, 1, 1, 1}));
    assertTrue(fixed.satisfied(new double[] {1, 1, 1, 1, 1}));
    assertFalse(fixed.shortOfTarget(5, 1.0));
  }

  @Test
  void aMeanOfZeroIsNeverKnownWithinAShareOfIt() {
    assertEquals(
        Double.POSITIVE_INFINITY, RepeatRule.relativeHalfWidth(new double[] {-1, 1, -1, 1}));
    assertEquals(Double.POSITIVE_INFINITY, RepeatRule.relativeHalfWidth(new double[] {5}));
  }

  @Test
  void percentagesPrintAsWritten() {
    assertEquals("2%", RepeatRule.percent(0.02));
    assertEquals("0.5%", RepeatRule.percent(0.005));
    assertEquals("12.25%", RepeatRule.percent(0.1225));
  }

  @Test
  void anImpossibleRuleIsAProgrammingError() {
    assertThrows(IllegalArgumentException.class, () -> new RepeatRule(4, 3, 0.02, null));
    assertThrows(IllegalArgumentException.class, () -> new RepeatRule(3, 4, 1.0, null));
  }

  @Test
  void theRatiosCountIsWhereTheirIntervalWouldBeTheTarget() {
    io.tunelab.stats.Summary base = io.tunelab.stats.Summary.of(new double[] {100, 102, 98});
    io.tunelab.stats.Summary next = io.tunelab.stats.Summary.of(new double[] {110, 112, 108});
    int n = io.tunelab.stats.TwoStage.ratioSize(base, next, 0.02, 0.95, 100);
    // cv 2 % and 1.8 %: t(~4 df) · sqrt(cv_b² + cv_n²) / asinh(2 %) squared.
    double vb = Math.pow(2.0 / 100, 2);
    double vn = Math.pow(2.0 / 110, 2);
    double df = Math.pow(vb + vn, 2) / (vb * vb / 2 + vn * vn / 2);
    double t =
        new org.hipparchus.distribution.continuous.TDistribution(df)
            .inverseCumulativeProbability(0.975);
    double h = Math.log(0.02 + Math.sqrt(1 + 0.0004));
    assertEquals((int) Math.ceil(t * t * (vb + vn) / (h * h)), n);
    assertEquals(3, io.tunelab.stats.TwoStage.ratioSize(base, base, 0.5, 0.95, 100));
    assertEquals(7, io.tunelab.stats.TwoStage.ratioSize(base, next, 0.02, 0.95, 7));
  }
}
