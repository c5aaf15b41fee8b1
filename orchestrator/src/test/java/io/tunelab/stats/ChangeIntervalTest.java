package io.tunelab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Intervals of a %change; the figures are SciPy's (t quantiles, delta method by hand). */
class ChangeIntervalTest {
  private static MeanEstimate of(double... values) {
    return MeanEstimate.of(Summary.of(values));
  }

  @Test
  void aRatioIsTheLogIntervalTurnedBackIntoPercent() {
    Interval i = ChangeInterval.of(of(100, 101, 99), of(110, 112, 111), 0.95);
    assertEquals(8.620734533342981, i.low(), 1e-9);
    assertEquals(13.431381705652726, i.high(), 1e-9);
  }

  @Test
  void oneRowGivesTheSameTotalAndGeomeanAsItsRatio() {
    MeanEstimate b = of(100, 101, 99);
    MeanEstimate n = of(110, 112, 111);
    Interval ratio = ChangeInterval.of(b, n, 0.95);
    assertEquals(ratio, ChangeInterval.total(List.of(b), List.of(n), 0.95));
    assertEquals(ratio, ChangeInterval.geomean(List.of(b), List.of(n), 0.95));
  }

  @Test
  void moreRowsNarrowTheGeomean() {
    MeanEstimate b = of(100, 101, 99);
    MeanEstimate n = of(110, 112, 111);
    Interval one = ChangeInterval.geomean(List.of(b), List.of(n), 0.95);
    Interval four = ChangeInterval.geomean(List.of(b, b, b, b), List.of(n, n, n, n), 0.95);
    assertTrue(four.high() - four.low() < one.high() - one.low());
  }

  @Test
  void noSpreadIsAPointAndNoVarianceOrAMeanOfZeroIsUnknown() {
    Interval point = ChangeInterval.of(of(100, 100), of(110, 110), 0.95);
    assertEquals(10, point.low(), 1e-9);
    assertEquals(10, point.high(), 1e-9);
    assertFalse(ChangeInterval.of(of(100), of(110, 111), 0.95).known());
    assertFalse(ChangeInterval.of(of(-1, 1), of(110, 111), 0.95).known());
  }

  @Test
  void aTwoStageCellTakesTheLargerVarianceWithThePilotsDegrees() {
    Summary all = Summary.of(new double[] {100, 100.1, 100, 90, 110});
    Summary pilot = Summary.of(new double[] {100, 100.1, 100});
    MeanEstimate e = MeanEstimate.twoStage(all, pilot);
    assertEquals(2, e.df());
    assertEquals(all.stddevSamp() * all.stddevSamp() / 5, e.variance(), 1e-12);
    MeanEstimate tight = MeanEstimate.twoStage(pilot, Summary.of(new double[] {90, 110, 100}));
    assertEquals(100.0, tight.variance() * 3, 1e-9);
  }
}
