package io.tunelab.stats;

import java.util.ArrayList;
import java.util.List;

/**
 * Why a cell's mean deserves less trust: fewer than three repetitions (no significance test), a
 * coefficient of variation above 5 %, a repetition that Grubbs' test finds outlying, or too few
 * repetitions to judge outliers at all.
 *
 * @param n how many values there were
 * @param cv {@code stddevPop / mean}, NaN without values or with a zero mean
 * @param outliers the outlying values with their position and Grubbs' statistic
 */
public record Caveats(int n, double cv, List<Outlier> outliers) {
  /** Fewer repetitions than this cannot be tested for a difference. */
  public static final int MIN_N = 3;

  /** A coefficient of variation above this is noisy. */
  public static final double MAX_CV = 0.05;

  /** One outlying value: its position in the values given, and its Grubbs statistic. */
  public record Outlier(int position, double value, double score) {}

  /** Checks the values of one cell (its ok, non-warm-up repetitions in order). */
  public static Caveats of(double[] values) {
    if (values.length == 0) {
      return new Caveats(0, Double.NaN, List.of());
    }
    Summary s = Summary.of(values);
    double[] scores = Outliers.scores(values);
    List<Outlier> outliers = new ArrayList<>();
    for (int i : Outliers.positions(values)) {
      outliers.add(new Outlier(i, values[i], scores[i]));
    }
    return new Caveats(s.n(), s.cv(), List.copyOf(outliers));
  }

  /** Measured, but fewer than {@link #MIN_N} times. */
  public boolean tooFew() {
    return n > 0 && n < MIN_N;
  }

  /** Measured, but too few times to tell an outlier from noise ({@link Outliers#MIN_N}). */
  public boolean tooFewForOutliers() {
    return n > 0 && !Outliers.judgeable(n);
  }

  /** The coefficient of variation exceeds {@link #MAX_CV}. */
  public boolean noisy() {
    return cv > MAX_CV;
  }

  /** Whether there is anything to warn about. */
  public boolean any() {
    return tooFew() || noisy() || !outliers.isEmpty() || tooFewForOutliers();
  }
}
