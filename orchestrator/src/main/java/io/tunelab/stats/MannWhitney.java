package io.tunelab.stats;

import java.util.Arrays;
import org.hipparchus.stat.inference.MannWhitneyUTest;

/**
 * The Mann–Whitney U test (Wilcoxon rank-sum), two-sided: whether the values of one side tend to be
 * larger than the other's, from their ranks alone. It assumes no shape of the noise, so a few slow
 * outliers of skewed timings do not sway it as they sway a mean; exact for small samples without
 * ties, by the normal approximation otherwise (Hipparchus).
 */
public final class MannWhitney {
  /** Samples up to this size together get the exact distribution of U. */
  private static final int EXACT_UP_TO = 50;

  private MannWhitney() {}

  /** The two-sided p-value; NaN when a side has no value. */
  public static double p(double[] base, double[] next) {
    if (base.length == 0 || next.length == 0) {
      return Double.NaN;
    }
    boolean exact = base.length + next.length <= EXACT_UP_TO && !tied(base, next);
    return Math.min(1, new MannWhitneyUTest().mannWhitneyUTest(base, next, exact));
  }

  private static boolean tied(double[] a, double[] b) {
    double[] all = new double[a.length + b.length];
    System.arraycopy(a, 0, all, 0, a.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    Arrays.sort(all);
    for (int i = 1; i < all.length; i++) {
      if (all[i] == all[i - 1]) {
        return true;
      }
    }
    return false;
  }
}
