package io.tunelab.stats;

import java.util.Arrays;

/**
 * The statistics tunelab keeps per cell and metric.
 *
 * @param n the number of values
 * @param stddevPop the population standard deviation (divides by n), the convention of the classic
 *     kernel mailing-list tables; 0 for a single value
 * @param stddevSamp the sample standard deviation (divides by n - 1); NaN for fewer than two values
 * @param median the middle value, or the mean of the two middle values for an even n
 */
public record Summary(
    int n,
    double mean,
    double stddevPop,
    double stddevSamp,
    double min,
    double median,
    double max) {

  /** Summarises at least one finite value. */
  public static Summary of(double[] values) {
    if (values.length == 0) {
      throw new IllegalArgumentException("no values to summarise");
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    double sum = 0;
    for (double v : sorted) {
      if (!Double.isFinite(v)) {
        throw new IllegalArgumentException("cannot summarise " + v);
      }
      sum += v;
    }
    double mean = sum / n;
    // Two passes: the sum of squared deviations from the mean is exact enough for any
    // spread a benchmark produces, unlike the sum-of-squares shortcut.
    double squares = 0;
    for (double v : sorted) {
      squares += (v - mean) * (v - mean);
    }
    double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    return new Summary(
        n,
        mean,
        Math.sqrt(squares / n),
        n < 2 ? Double.NaN : Math.sqrt(squares / (n - 1)),
        sorted[0],
        median,
        sorted[n - 1]);
  }

  /**
   * The coefficient of variation, {@code stddevPop / mean} like the {@code cv} column of {@code
   * cell_results}; NaN when the mean is 0.
   */
  public double cv() {
    return mean == 0 ? Double.NaN : stddevPop / Math.abs(mean);
  }

  /** The confidence interval of the mean at {@code level} (0.95 for 95 %); see {@link Interval}. */
  public Interval meanInterval(double level) {
    return Interval.ofMean(this, level);
  }
}
