package io.tunelab.stats;

import java.util.ArrayList;
import java.util.List;
import org.hipparchus.distribution.continuous.TDistribution;

/**
 * One outlying repetition by Grubbs' test (Grubbs 1969; ASTM E178), two-sided at the 5 % level,
 * judged only from {@link #MIN_N} values on.
 *
 * <p>The statistic of a value is {@code G = (x - mean) / s} with the sample standard deviation; the
 * most extreme value is an outlier when {@code |G|} exceeds the critical value for n values, which
 * follows from Student's t. Under normal noise a cell without an outlier is flagged 5 % of the time
 * whatever n is. Below {@link #MIN_N} the test keeps that rate but finds almost nothing: with three
 * values it flags a repetition ten standard deviations off in about one cell of six, so its silence
 * would mean nothing and its verdicts are closer to chance. Such cells are reported as too few to
 * judge instead. (The modified z-score with a fixed 3.5 cut-off, used before, flags 15 to 30 % of
 * cells of pure normal noise at three to nine values: warnings that cry wolf.)
 */
public final class Outliers {
  /** The chance of flagging a cell whose values are normal noise without an outlier. */
  public static final double ALPHA = 0.05;

  /**
   * Fewer values than this are too few to judge: from six values on, Grubbs' test finds a
   * repetition five standard deviations off in at least half of the cells.
   */
  public static final int MIN_N = 6;

  private Outliers() {}

  /** Whether {@code n} values are enough to judge outliers. */
  public static boolean judgeable(int n) {
    return n >= MIN_N;
  }

  /**
   * Grubbs' critical value for {@code n} values at {@link #ALPHA}, two-sided: {@code (n-1)/sqrt(n)
   * * sqrt(t^2 / (n-2+t^2))} with t the upper {@code ALPHA/(2n)} quantile of Student's t with n-2
   * degrees of freedom.
   */
  public static double critical(int n) {
    if (n < 3) {
      throw new IllegalArgumentException("Grubbs' test needs at least 3 values, got " + n);
    }
    return n < Tabulated.UP_TO ? Tabulated.CRITICAL.get(n) : computed(n);
  }

  private static double computed(int n) {
    // No random generator: it is only needed for sampling, and costs more than the quantile.
    double t = new TDistribution(n - 2).inverseCumulativeProbability(1 - ALPHA / (2.0 * n));
    return (n - 1) / Math.sqrt(n) * Math.sqrt(t * t / (n - 2 + t * t));
  }

  /**
   * The critical values of the usual repetition counts, computed once: a report judges every cell,
   * and the quantile costs as much as the rest of a cell's statistics.
   */
  private static final class Tabulated {
    static final int UP_TO = 32;
    static final List<Double> CRITICAL = table();

    private static List<Double> table() {
      List<Double> table = new ArrayList<>(UP_TO);
      for (int n = 0; n < UP_TO; n++) {
        table.add(n < 3 ? Double.NaN : computed(n));
      }
      return List.copyOf(table);
    }
  }

  /**
   * Grubbs' statistic {@code (x - mean) / s} of every value, in the order given; 0 if none vary.
   */
  public static double[] scores(double[] values) {
    double[] scores = new double[values.length];
    if (values.length < 2) {
      return scores;
    }
    Summary s = Summary.of(values);
    if (!(s.stddevSamp() > 0)) {
      return scores;
    }
    for (int i = 0; i < values.length; i++) {
      scores[i] = (values[i] - s.mean()) / s.stddevSamp();
    }
    return scores;
  }

  /**
   * The position of the outlier in {@code values}, if Grubbs' test finds one: at most one, the
   * value farthest from the mean. None for fewer than {@link #MIN_N} values.
   */
  public static List<Integer> positions(double[] values) {
    List<Integer> found = new ArrayList<>();
    if (!judgeable(values.length)) {
      return found;
    }
    double[] scores = scores(values);
    int extreme = 0;
    for (int i = 1; i < scores.length; i++) {
      if (Math.abs(scores[i]) > Math.abs(scores[extreme])) {
        extreme = i;
      }
    }
    if (Math.abs(scores[extreme]) > critical(values.length)) {
      found.add(extreme);
    }
    return found;
  }
}
