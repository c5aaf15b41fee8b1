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

  /**
   * One row of a TOTAL or geomean: its two means and, when its cells ran in the same rounds, their
   * pairs ({@code paired} null otherwise). A paired row's share of the variance comes from the
   * spread of its rounds, in which a drift common to both sides cancels.
   */
  public record Part(MeanEstimate base, MeanEstimate next, PairedRatio paired) {
    /** A row of independent samples. */
    public Part(MeanEstimate base, MeanEstimate next) {
      this(base, next, null);
    }
  }

  /** The interval of the %change between the sums of the means of each side. */
  public static Interval total(List<MeanEstimate> bases, List<MeanEstimate> nexts, double level) {
    return total(parts(bases, nexts), level);
  }

  /**
   * The interval of the %change between the sums of the means: {@code log(ΣN / ΣB)}, whose variance
   * is {@code Σ v_n / ΣN² + Σ v_b / ΣB²} for independent rows and, for a paired row, that of the
   * mean over its rounds of {@code n_k / ΣN − b_k / ΣB}.
   */
  public static Interval total(List<Part> parts, double level) {
    double sb = 0;
    double sn = 0;
    for (Part p : parts) {
      sb += p.base().mean();
      sn += p.next().mean();
    }
    if (!(sb > 0 && sn > 0)) {
      return unknown(level);
    }
    Terms terms = new Terms();
    for (Part p : parts) {
      if (p.paired() != null) {
        double[] b = p.paired().base();
        double[] n = p.paired().next();
        double[] d = new double[b.length];
        for (int k = 0; k < d.length; k++) {
          d[k] = n[k] / sn - b[k] / sb;
        }
        terms.addMean(d);
      } else {
        terms.add(p.base().variance() / (sb * sb), p.base().df());
        terms.add(p.next().variance() / (sn * sn), p.next().df());
      }
    }
    return terms.interval(Math.log(sn / sb), level);
  }

  /**
   * The interval of the geometric mean of the ratios {@code next_i / base_i}, as a %change: the
   * mean of the log ratios, whose variance is that of each log mean over the number of ratios
   * squared.
   */
  public static Interval geomean(List<MeanEstimate> bases, List<MeanEstimate> nexts, double level) {
    if (bases.size() != nexts.size()) {
      return unknown(level);
    }
    return geomean(parts(bases, nexts), level);
  }

  /**
   * As {@link #geomean(List, List, double)}; a paired row's log ratio varies as the mean of its
   * rounds' log ratios does.
   */
  public static Interval geomean(List<Part> parts, double level) {
    int k = parts.size();
    if (k == 0) {
      return unknown(level);
    }
    Terms terms = new Terms();
    double logs = 0;
    for (Part p : parts) {
      MeanEstimate b = p.base();
      MeanEstimate n = p.next();
      if (!(b.mean() > 0 && n.mean() > 0)) {
        return unknown(level);
      }
      logs += Math.log(n.mean() / b.mean());
      if (p.paired() != null) {
        double[] d = new double[p.paired().rounds()];
        for (int r = 0; r < d.length; r++) {
          d[r] = Math.log(p.paired().next()[r] / p.paired().base()[r]) / k;
        }
        terms.addMean(d);
      } else {
        terms.add(b.variance() / (b.mean() * b.mean() * k * k), b.df());
        terms.add(n.variance() / (n.mean() * n.mean() * k * k), n.df());
      }
    }
    return terms.interval(logs / k, level);
  }

  private static List<Part> parts(List<MeanEstimate> bases, List<MeanEstimate> nexts) {
    List<Part> parts = new ArrayList<>();
    for (int i = 0; i < Math.min(bases.size(), nexts.size()); i++) {
      parts.add(new Part(bases.get(i), nexts.get(i)));
    }
    return parts;
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

    /** The variance of the mean of {@code values}, with their count less one degrees. */
    void addMean(double[] values) {
      if (values.length < 2) {
        unknown = true;
        return;
      }
      Summary s = Summary.of(values);
      add(s.stddevSamp() * s.stddevSamp() / values.length, values.length - 1);
    }

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
