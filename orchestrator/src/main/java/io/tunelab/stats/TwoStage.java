package io.tunelab.stats;

import org.hipparchus.distribution.continuous.TDistribution;

/**
 * Stein's two-stage sample size (C. Stein, "A two-sample test for a linear hypothesis whose power
 * is independent of the variance", Annals of Mathematical Statistics 16(3), 1945): the first values
 * of a cell are a pilot, and the pilot alone fixes how many values the cell takes in all. Stopping
 * as soon as a running interval looks narrow enough would choose the cells whose first values
 * happened to agree, and a later test would believe their too small variance.
 */
public final class TwoStage {
  private TwoStage() {}

  /**
   * How many values in all give a {@code level} confidence half-width of at most {@code target} (a
   * fraction of the mean) when the noise is what the pilot shows: {@code ceil((t(level, k - 1) · s
   * / (target · |mean|))²)} for a pilot of {@code k} values, at least {@code k} and at most {@code
   * max}; {@code max} when the pilot has fewer than two values or a mean of 0.
   */
  public static int size(Summary pilot, double target, double level, int max) {
    if (pilot.n() < 2 || pilot.mean() == 0 || !(target > 0)) {
      return Math.max(max, pilot.n());
    }
    double t = new TDistribution(pilot.n() - 1).inverseCumulativeProbability(1 - (1 - level) / 2);
    double root = t * pilot.stddevSamp() / (target * Math.abs(pilot.mean()));
    double n = Math.ceil(root * root);
    return (int) Math.max(pilot.n(), Math.min(max, n));
  }
}
