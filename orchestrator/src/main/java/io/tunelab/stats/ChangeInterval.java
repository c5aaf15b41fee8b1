package io.tunelab.stats;

import java.util.ArrayList;
import java.util.List;

/**
 * Confidence intervals of a %change, computed on the log of the ratio of means and turned back into
 * percent: {@code log(new / base) ± t(df) · se}, with the standard error by the delta method
 * ({@code var(log m) ≈ var(m) / m²}) and the degrees of freedom by Welch–Satterthwaite over every
 * mean involved. The log keeps the interval of a ratio asymmetric as it should be (a halving and a
 * doubling are equally far from 1). An interval is unknown (NaN ends) when a mean is not positive
 * or a side has no variance.
 */
public final class ChangeInterval {
  private ChangeInterval() {}

  /** The interval of {@code 100 (next / base - 1)}. */
  public static Interval of(MeanEstimate base, MeanEstimate next, double level) {
    return total(List.of(base), List.of(next), level);
  }

  /** The interval of the %change between the sums of the means of each side. */
  public static Interval total(List<MeanEstimate> bases, List<MeanEstimate> nexts, double level) {
    double sb = 0;
    double sn = 0;
    for (MeanEstimate e : bases) {
      sb += e.mean();
    }
    for (MeanEstimate e : nexts) {
      sn += e.mean();
    }
    if (!(sb > 0 && sn > 0)) {
      return unknown(level);
    }
    Terms terms = new Terms();
    for (MeanEstimate e : bases) {
      terms.add(e.variance() / (sb * sb), e.df());
    }
    for (MeanEstimate e : nexts) {
      terms.add(e.variance() / (sn * sn), e.df());
    }
    return terms.interval(Math.log(sn / sb), level);
  }

  /**
   * The interval of the geometric mean of the ratios {@code next_i / base_i}, as a %change: the
   * mean of the log ratios, whose variance is that of each log mean over the number of ratios
   * squared.
   */
  public static Interval geomean(List<MeanEstimate> bases, List<MeanEstimate> nexts, double level) {
    int k = bases.size();
    if (k == 0 || nexts.size() != k) {
      return unknown(level);
    }
    Terms terms = new Terms();
    double logs = 0;
    for (int i = 0; i < k; i++) {
      MeanEstimate b = bases.get(i);
      MeanEstimate n = nexts.get(i);
      if (!(b.mean() > 0 && n.mean() > 0)) {
        return unknown(level);
      }
      logs += Math.log(n.mean() / b.mean());
      terms.add(b.variance() / (b.mean() * b.mean() * k * k), b.df());
      terms.add(n.variance() / (n.mean() * n.mean() * k * k), n.df());
    }
    return terms.interval(logs / k, level);
  }

  /** An interval whose ends are not known. */
  public static Interval unknown(double level) {
    return new Interval(Double.NaN, Double.NaN, level);
  }

  /** {@code 100 (exp(log) - 1)}: a log ratio as a %change. */
  static double percent(double logRatio) {
    return 100 * Math.expm1(logRatio);
  }

  /** Variance contributions with their degrees of freedom, for Welch–Satterthwaite. */
  private static final class Terms {
    private final List<double[]> terms = new ArrayList<>();
    private boolean unknown;

    void add(double variance, double df) {
      if (Double.isNaN(variance) || !(df >= 1)) {
        unknown = true;
      } else {
        terms.add(new double[] {variance, df});
      }
    }

    Interval interval(double logRatio, double level) {
      if (unknown) {
        return unknown(level);
      }
      double sum = 0;
      double denominator = 0;
      for (double[] t : terms) {
        sum += t[0];
        denominator += t[0] * t[0] / t[1];
      }
      if (sum == 0) {
        return new Interval(percent(logRatio), percent(logRatio), level);
      }
      double df = sum * sum / denominator;
      double half = Interval.quantile(df, level) * Math.sqrt(sum);
      return new Interval(percent(logRatio - half), percent(logRatio + half), level);
    }
  }
}
