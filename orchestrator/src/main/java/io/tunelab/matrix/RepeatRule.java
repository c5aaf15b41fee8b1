package io.tunelab.matrix;

import io.tunelab.stats.Interval;
import io.tunelab.stats.Summary;
import io.tunelab.stats.TwoStage;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How many measured repetitions a cell gets: {@code max} of them, or, when {@code target} is above
 * 0, from {@code min} up to {@code max} in two stages: the first {@code min} are a pilot, and the
 * pilot's spread of the main metric alone fixes how many the cell takes, the count at which the 95
 * % confidence half-width of the mean would be {@code target} of the mean ({@link TwoStage}).
 *
 * @param target the half-width as a fraction of the mean ({@code 0.02} for {@code 2%}); 0 for a
 *     fixed count
 *     <p>With {@code compare}, the target is that of a ratio: cells that share every other axis
 *     form a group, the first value of the compared axis is its base, and the pilots of all the
 *     group's cells fix one count for all of them, the count at which the 95 % confidence interval
 *     of each ratio (value / base, as {@code compare} computes it) would be within {@code target}
 *     ({@link TwoStage#ratioSize}).
 * @param metric the main metric of the aggregate job, or null for the report's: {@code mib_per_s}
 *     where the workload records it, else {@code seconds}
 * @param compare the axis (as the matrix writes it) whose values' ratios the target is about, or
 *     null for each cell's own mean
 */
public record RepeatRule(int min, int max, double target, String metric, String compare) {
  /** The confidence level of the interval the rule judges. */
  public static final double LEVEL = 0.95;

  public RepeatRule {
    if (min < 1 || max < min || target < 0 || target >= 1) {
      throw new IllegalArgumentException(
          "need 1 <= min <= max and 0 <= target < 1; got " + min + ", " + max + ", " + target);
    }
    if (compare != null && target == 0) {
      throw new IllegalArgumentException("a compared axis needs a target");
    }
  }

  /** A rule about each cell's own mean. */
  public RepeatRule(int min, int max, double target, String metric) {
    this(min, max, target, metric, null);
  }

  /** Whether the target is that of the ratios between the values of an axis. */
  public boolean compares() {
    return compare != null;
  }

  /** {@code n} repetitions, whatever they show. */
  public static RepeatRule fixed(int n, String metric) {
    return new RepeatRule(n, n, 0, metric);
  }

  /** Whether the cell may stop early. */
  public boolean adaptive() {
    return target > 0;
  }

  /**
   * The half-width of the mean's 95 % confidence interval as a fraction of the mean's size;
   * infinite for fewer than two values or a mean of 0.
   */
  public static double relativeHalfWidth(double[] values) {
    return values.length == 0 ? Double.POSITIVE_INFINITY : relativeHalfWidth(Summary.of(values));
  }

  /** {@link #relativeHalfWidth(double[])} of summarised values. */
  public static double relativeHalfWidth(Summary s) {
    if (s.n() < 2) {
      return Double.POSITIVE_INFINITY;
    }
    if (s.stddevSamp() == 0) {
      return 0;
    }
    double mean = Math.abs(s.mean());
    return mean == 0 ? Double.POSITIVE_INFINITY : Interval.ofMean(s, LEVEL).halfWidth() / mean;
  }

  /**
   * Whether a cell that stopped with {@code n} measured trials at this half-width of its own mean
   * fell short; never under {@code compare}, whose target is about ratios.
   */
  public boolean shortOfTarget(int n, double relativeHalfWidth) {
    return adaptive() && !compares() && n >= max && relativeHalfWidth > target;
  }

  /**
   * How many measured repetitions each cell of a group takes when the pilots (the first {@code min}
   * values) of its base cell and of the cells compared with it are {@code basePilot} and {@code
   * pilots}: the largest {@link TwoStage#ratioSize} over the ratios.
   */
  public int plannedForRatios(double[] basePilot, List<double[]> pilots) {
    int n = min;
    for (double[] p : pilots) {
      n =
          Math.max(
              n,
              TwoStage.ratioSize(
                  Summary.of(pilot(basePilot)), Summary.of(pilot(p)), target, LEVEL, max));
    }
    return n;
  }

  /** Whether a cell whose measured repetitions gave {@code values} needs no more. */
  public boolean satisfied(double[] values) {
    if (values.length >= max) {
      return true;
    }
    return adaptive() && values.length >= min && values.length >= planned(values);
  }

  /**
   * How many measured repetitions the pilot among {@code values} (their first {@code min}) asks
   * for; {@code max} for a fixed count or before the pilot is complete.
   */
  public int planned(double[] values) {
    if (!adaptive() || values.length < min) {
      return max;
    }
    return TwoStage.size(Summary.of(pilot(values)), target, LEVEL, max);
  }

  /** The pilot: the first {@code min} of a cell's measured values, or all of fewer. */
  public double[] pilot(double[] values) {
    return Arrays.copyOf(values, Math.min(min, values.length));
  }

  /** {@code 2%}, {@code 0.5%}: the target as the matrix writes it. */
  public static String percent(double fraction) {
    String p = String.format(Locale.ROOT, "%.4f", fraction * 100).replaceAll("\\.?0+$", "");
    return p + "%";
  }
}
