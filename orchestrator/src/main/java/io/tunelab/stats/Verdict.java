package io.tunelab.stats;

/**
 * What a compared row says: a change only when Welch's t-test finds it (n >= 3 on both sides, p
 * below alpha) and it is at least {@code --min-change} large, {@code better} or {@code worse} by
 * the metric's {@link Direction}; {@code same} otherwise; {@code n<3} when a side has too few
 * repetitions to test.
 */
public enum Verdict {
  BETTER("better"),
  WORSE("worse"),
  /** A change of a metric whose direction is unknown. */
  CHANGED("changed"),
  SAME("same"),
  /** Fewer than {@link Caveats#MIN_N} repetitions on a side: no test, no verdict. */
  UNTESTED("n<3");

  private final String text;

  Verdict(String text) {
    this.text = text;
  }

  /**
   * The verdict on a row.
   *
   * @param untested a side has fewer than {@link Caveats#MIN_N} values
   * @param significant the test found a difference at its level
   * @param percent the %change of the mean, NaN when the base mean is 0
   * @param minChange the smallest |%change| called a change
   */
  public static Verdict of(
      boolean untested, boolean significant, double percent, double minChange, Direction d) {
    if (untested) {
      return UNTESTED;
    }
    if (!significant || Double.isNaN(percent) || Math.abs(percent) < minChange) {
      return SAME;
    }
    return d.verdict(percent);
  }

  /** {@code better}, {@code worse}, {@code changed}, {@code same} or {@code n<3}. */
  public String text() {
    return text;
  }
}
