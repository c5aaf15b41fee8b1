package io.tunelab.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Outliers by the modified z-score of Iglewicz and Hoaglin: {@code 0.6745 (x - median) / MAD},
 * flagged above 3.5. Median and MAD resist the outlier itself, unlike the mean and the standard
 * deviation, which matters with the handful of repetitions benchmarks have.
 */
public final class Outliers {
  /** Scores above this (in absolute value) are outliers, as Iglewicz and Hoaglin recommend. */
  public static final double THRESHOLD = 3.5;

  /** Fewer values than this have no meaningful median to stray from. */
  public static final int MIN_N = 3;

  // 0.6745 is the 0.75 quantile of the standard normal: it makes MAD comparable to a
  // standard deviation. When MAD is 0 (more than half the values equal), the mean absolute
  // deviation scaled by sqrt(pi/2) = 1.253314 takes its place (as IBM SPSS does).
  private static final double MAD_SCALE = 0.6745;
  private static final double MEAN_AD_SCALE = 1.253314;

  private Outliers() {}

  /** The modified z-score of every value, in the order given; all 0 when nothing varies. */
  public static double[] scores(double[] values) {
    double median = median(values);
    double[] deviations = new double[values.length];
    double sum = 0;
    for (int i = 0; i < values.length; i++) {
      deviations[i] = Math.abs(values[i] - median);
      sum += deviations[i];
    }
    double mad = median(deviations);
    double meanAd = values.length == 0 ? 0 : sum / values.length;
    double[] scores = new double[values.length];
    for (int i = 0; i < values.length; i++) {
      double d = values[i] - median;
      if (mad > 0) {
        scores[i] = MAD_SCALE * d / mad;
      } else if (meanAd > 0) {
        scores[i] = d / (MEAN_AD_SCALE * meanAd);
      }
    }
    return scores;
  }

  /** The positions of the outliers in {@code values}; none for fewer than {@link #MIN_N}. */
  public static List<Integer> positions(double[] values) {
    List<Integer> found = new ArrayList<>();
    if (values.length < MIN_N) {
      return found;
    }
    double[] scores = scores(values);
    for (int i = 0; i < scores.length; i++) {
      if (Math.abs(scores[i]) > THRESHOLD) {
        found.add(i);
      }
    }
    return found;
  }

  private static double median(double[] values) {
    if (values.length == 0) {
      return Double.NaN;
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
