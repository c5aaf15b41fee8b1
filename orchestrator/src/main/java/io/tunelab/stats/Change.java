package io.tunelab.stats;

import java.util.Collection;

/** The change from a base value to a new one, as kernel comparisons print it. */
public final class Change {
  private Change() {}

  /** {@code 100 * (next - base) / |base|}; NaN when the base is 0. */
  public static double percent(double base, double next) {
    return base == 0 ? Double.NaN : 100 * (next - base) / Math.abs(base);
  }

  /**
   * The geometric mean of positive ratios, NaN when there are none or one is not positive. It is
   * the fair average of ratios: a halving and a doubling average to 1.
   */
  public static double geometricMean(Collection<Double> ratios) {
    if (ratios.isEmpty()) {
      return Double.NaN;
    }
    double logs = 0;
    for (double r : ratios) {
      if (!(r > 0) || Double.isInfinite(r)) {
        return Double.NaN;
      }
      logs += Math.log(r);
    }
    return Math.exp(logs / ratios.size());
  }
}
