package io.tunelab.stats;

import org.hipparchus.distribution.continuous.TDistribution;

/**
 * A two-sided confidence interval at {@code level} (0.95 for 95 %); both ends are NaN when it
 * cannot be computed (fewer than two values).
 */
public record Interval(double low, double high, double level) {
  public Interval {
    if (!(level > 0 && level < 1)) {
      throw new IllegalArgumentException("a confidence level lies between 0 and 1, not " + level);
    }
  }

  /**
   * The Student-t interval of a mean: {@code mean ± t(1 - (1 - level) / 2, n - 1) * s / sqrt(n)}
   * with the sample standard deviation {@code s}. It assumes roughly normal repetitions, which is
   * what a t-test assumes too.
   */
  public static Interval ofMean(Summary s, double level) {
    if (s.n() < 2) {
      return new Interval(Double.NaN, Double.NaN, level);
    }
    double half = quantile(s.n() - 1, level) * s.stddevSamp() / Math.sqrt(s.n());
    return new Interval(s.mean() - half, s.mean() + half, level);
  }

  /** The t quantile that leaves {@code (1 - level) / 2} in each tail. */
  static double quantile(double degreesOfFreedom, double level) {
    // No random generator: it is only needed for sampling, and costs more than the rest.
    return new TDistribution(degreesOfFreedom).inverseCumulativeProbability(1 - (1 - level) / 2);
  }

  /** Half the width: the {@code ±} of {@code mean ± half}. */
  public double halfWidth() {
    return (high - low) / 2;
  }

  /** Whether both ends are known. */
  public boolean known() {
    return !Double.isNaN(low) && !Double.isNaN(high);
  }
}
