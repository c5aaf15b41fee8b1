package io.tunelab.stats;

import org.hipparchus.distribution.continuous.TDistribution;

/**
 * Welch's unequal-variances t-test of {@code next} against {@code base}, two-sided, from the two
 * summaries (means, sample standard deviations, counts).
 *
 * @param difference {@code next.mean - base.mean}
 * @param t the t statistic; infinite when both sides have no spread but different means
 * @param df the Welch–Satterthwaite degrees of freedom
 * @param p the two-sided p-value
 * @param se the standard error of the difference
 * @param level the confidence level of {@link #interval()}
 */
public record Welch(double difference, double t, double df, double p, double se, double level) {
  /** Both sides need this many values for a test at all; reports ask for three. */
  public static final int MIN_N = 2;

  public Welch {
    if (!(level > 0 && level < 1)) {
      throw new IllegalArgumentException("a confidence level lies between 0 and 1, not " + level);
    }
  }

  /** Whether the test can be computed: at least two values on each side. */
  public static boolean applicable(Summary base, Summary next) {
    return base.n() >= MIN_N && next.n() >= MIN_N;
  }

  /**
   * Tests whether the means differ; {@code level} sizes the interval of the difference. When
   * neither side varies the test degenerates: equal means give p = 1, different means p = 0.
   */
  public static Welch test(Summary base, Summary next, double level) {
    if (!applicable(base, next)) {
      throw new IllegalArgumentException(
          "Welch's t-test needs two values on each side, not " + base.n() + " and " + next.n());
    }
    return test(MeanEstimate.of(base), MeanEstimate.of(next), level);
  }

  /**
   * The same test of two estimates, each with its own variance and degrees of freedom (a cell that
   * stopped after a pilot, {@link MeanEstimate#twoStage}); both must be {@link
   * MeanEstimate#known()}.
   */
  public static Welch test(MeanEstimate base, MeanEstimate next, double level) {
    if (!base.known() || !next.known()) {
      throw new IllegalArgumentException("Welch's t-test needs a variance on each side");
    }
    double difference = next.mean() - base.mean();
    double vb = base.variance();
    double vn = next.variance();
    double se = Math.sqrt(vb + vn);
    if (se == 0) {
      double t = difference == 0 ? 0 : Math.copySign(Double.POSITIVE_INFINITY, difference);
      return new Welch(difference, t, base.df() + next.df(), difference == 0 ? 1 : 0, se, level);
    }
    double df = (vb + vn) * (vb + vn) / (vb * vb / base.df() + vn * vn / next.df());
    double t = difference / se;
    TDistribution dist = new TDistribution(df);
    // 2 * P(T > |t|), from the upper tail so that tiny p-values keep their precision.
    double p = Math.min(1, 2 * dist.cumulativeProbability(-Math.abs(t)));
    return new Welch(difference, t, df, p, se, level);
  }

  /**
   * The confidence interval of the difference at {@link #level}; a point when neither side varies.
   * Computed when asked: its quantile costs more than the test, and text output never shows it.
   */
  public Interval interval() {
    if (se == 0) {
      return new Interval(difference, difference, level);
    }
    double half = Interval.quantile(df, level) * se;
    return new Interval(difference - half, difference + half, level);
  }
}
