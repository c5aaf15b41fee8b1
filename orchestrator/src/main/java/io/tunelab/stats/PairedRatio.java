package io.tunelab.stats;

import org.hipparchus.distribution.continuous.TDistribution;

/**
 * A paired t-test on the log ratios of values measured in the same rounds: {@code d_k = log(new_k /
 * base_k)}, {@code t = mean(d) / (sd(d) / sqrt(k))} with {@code k - 1} degrees of freedom. Drift
 * that moves both values of a round cancels in their ratio, so pairs by round see a change through
 * slow drift that independent samples would count as noise.
 *
 * @param rounds the number of pairs
 * @param change the %change of the geometric mean of the ratios
 * @param interval its confidence interval, in percent
 * @param p the two-sided p-value of mean log ratio 0
 * @param base the base's value of each round, in round order
 * @param next the new side's value of each round
 */
public record PairedRatio(
    int rounds,
    double change,
    Interval interval,
    double t,
    double p,
    double[] base,
    double[] next) {
  /** Pairs need this many rounds for a variance. */
  public static final int MIN_ROUNDS = 2;

  /**
   * The test of {@code next[k]} against {@code base[k]}; null with fewer than {@link #MIN_ROUNDS}
   * pairs or a value that is not positive.
   */
  public static PairedRatio of(double[] base, double[] next, double level) {
    int k = base.length;
    if (k != next.length) {
      throw new IllegalArgumentException("pairs need as many values on each side");
    }
    if (k < MIN_ROUNDS) {
      return null;
    }
    double[] d = new double[k];
    for (int i = 0; i < k; i++) {
      if (!(base[i] > 0 && next[i] > 0)) {
        return null;
      }
      d[i] = Math.log(next[i] / base[i]);
    }
    double[] b = base.clone();
    double[] n = next.clone();
    Summary s = Summary.of(d);
    double change = ChangeInterval.percent(s.mean());
    double se = s.stddevSamp() / Math.sqrt(k);
    if (se == 0) {
      return new PairedRatio(
          k,
          change,
          new Interval(change, change, level),
          s.mean() == 0 ? 0 : Math.copySign(Double.POSITIVE_INFINITY, s.mean()),
          s.mean() == 0 ? 1 : 0,
          b,
          n);
    }
    double t = s.mean() / se;
    double p = Math.min(1, 2 * new TDistribution(k - 1).cumulativeProbability(-Math.abs(t)));
    double half = Interval.quantile(k - 1, level) * se;
    Interval interval =
        new Interval(
            ChangeInterval.percent(s.mean() - half),
            ChangeInterval.percent(s.mean() + half),
            level);
    return new PairedRatio(k, change, interval, t, p, b, n);
  }
}
