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

  /**
   * The same for the ratio of two means, each side taking {@code n} values: the smallest {@code n}
   * at which the {@code level} confidence interval of {@code next / base} (on the log ratio, as
   * compare computes it: {@code t(df) · sqrt((cv_b² + cv_n²) / n)}, df by Welch–Satterthwaite of
   * the pilots) would lie within {@code ±target} of the ratio, at least the pilots' size and at
   * most {@code max}; {@code max} when a pilot has fewer than two values or a mean that is not
   * positive. The half-width of the interval {@code ratio · [e^-h, e^h]} relative to the ratio is
   * {@code sinh(h)}: held when {@code h <= asinh(target)}.
   */
  public static int ratioSize(Summary base, Summary next, double target, double level, int max) {
    int k = Math.min(base.n(), next.n());
    if (k < 2 || !(base.mean() > 0) || !(next.mean() > 0) || !(target > 0)) {
      return Math.max(max, k);
    }
    double vb = square(base.stddevSamp() / base.mean());
    double vn = square(next.stddevSamp() / next.mean());
    if (vb + vn == 0) {
      return k;
    }
    double df = square(vb + vn) / (square(vb) / (base.n() - 1) + square(vn) / (next.n() - 1));
    double t = new TDistribution(df).inverseCumulativeProbability(1 - (1 - level) / 2);
    double h = Math.log(target + Math.sqrt(target * target + 1));
    double n = Math.ceil(t * t * (vb + vn) / (h * h));
    return (int) Math.max(k, Math.min(max, n));
  }

  private static double square(double v) {
    return v * v;
  }
}
