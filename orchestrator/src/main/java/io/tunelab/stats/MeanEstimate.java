package io.tunelab.stats;

/**
 * A mean with the variance of its estimate and the degrees of freedom of that variance: what a
 * t-test or a t interval needs of one side.
 *
 * @param variance the squared standard error of the mean
 * @param df the degrees of freedom of {@code variance}
 */
public record MeanEstimate(double mean, double variance, double df) {
  /** The classic estimate of summarised values: {@code s² / n} with {@code n - 1} degrees. */
  public static MeanEstimate of(Summary s) {
    double sd = s.n() < 2 ? Double.NaN : s.stddevSamp();
    return new MeanEstimate(s.mean(), sd * sd / s.n(), s.n() - 1);
  }

  /**
   * The estimate after a two-stage stop ({@link TwoStage}): the mean of all values, and the larger
   * of the pilot's and all values' variances over the count, with the pilot's degrees of freedom.
   * The pilot's variance chose the count, but under normal noise it is independent of the mean of
   * all values (Stein's two-stage test is exact); the larger of the two keeps the test honest when
   * the noise is skewed and a tight pilot came with a low mean.
   */
  public static MeanEstimate twoStage(Summary all, Summary pilot) {
    if (pilot.n() < 2 || all.n() < 2) {
      return of(all);
    }
    double s = Math.max(pilot.stddevSamp(), all.stddevSamp());
    return new MeanEstimate(all.mean(), s * s / all.n(), pilot.n() - 1);
  }

  /** Whether the variance is known: at least two values behind it. */
  public boolean known() {
    return df >= 1 && !Double.isNaN(variance);
  }
}
