package io.tunelab.search;

import io.tunelab.stats.ChangeInterval;
import io.tunelab.stats.Direction;
import io.tunelab.stats.Interval;
import io.tunelab.stats.MeanEstimate;
import io.tunelab.stats.Summary;
import io.tunelab.stats.Verdict;
import io.tunelab.stats.Welch;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A search's confirmation: the winner's trials after the search's last round against {@code
 * default}'s, Welch's test at 95 % and the %change with its 95 % interval, with {@code compare}'s
 * verdict (a change of 2 % or more when significant, {@code n<3} below three values a side).
 *
 * @param winner the winner's cell
 * @param lastRound the search's last round: the winner's trials after it are its confirmation
 * @param baseN default's ok values
 * @param nextN the winner's ok confirmation values
 * @param baseMean their mean (NaN without values)
 * @param nextMean their mean (NaN without values)
 * @param percent the winner's mean against default's, in %
 * @param ci the interval of {@code percent}
 * @param verdict {@code better}, {@code worse}, {@code same} or {@code n<3}; null when a side has
 *     fewer than two ok values to test
 */
public record Confirmation(
    int winner,
    int lastRound,
    int baseN,
    int nextN,
    double baseMean,
    double nextMean,
    double percent,
    Interval ci,
    double p,
    Verdict verdict) {
  private static final double LEVEL = 0.95;

  /** The smallest change the confirmation calls one, as {@code compare}'s default. */
  private static final double MIN_CHANGE = 2.0;

  /** One measured trial of a search: its cell, its repetition (a round) and its value, or NaN. */
  public record Value(int cell, int rep, double value) {}

  /**
   * The confirmation of {@code done} (every trial of the search, in run order), whose cell {@code
   * defaultCell} is {@code default}: the winner is the last other cell run; empty of values when
   * default has not run.
   */
  public static Confirmation of(List<Value> done, int defaultCell, boolean maximize) {
    int winner =
        done.stream()
            .filter(v -> v.cell() != defaultCell)
            .reduce((a, b) -> b)
            .map(Value::cell)
            .orElse(0);
    int lastRound =
        done.stream()
            .filter(v -> v.cell() != winner && v.cell() != defaultCell)
            .mapToInt(Value::rep)
            .max()
            .orElse(0);
    double[] base = values(done, defaultCell, 0);
    double[] next = values(done, winner, lastRound);
    if (base.length < Welch.MIN_N || next.length < Welch.MIN_N) {
      return new Confirmation(
          winner,
          lastRound,
          base.length,
          next.length,
          mean(base),
          mean(next),
          Double.NaN,
          null,
          Double.NaN,
          null);
    }
    Summary b = Summary.of(base);
    Summary n = Summary.of(next);
    Welch w = Welch.test(b, n, LEVEL);
    double percent = (n.mean() - b.mean()) / b.mean() * 100;
    Interval ci = ChangeInterval.of(MeanEstimate.of(b), MeanEstimate.of(n), LEVEL);
    Direction d = maximize ? Direction.HIGHER_IS_BETTER : Direction.LOWER_IS_BETTER;
    Verdict verdict =
        Verdict.of(base.length < 3 || next.length < 3, w.p() < 1 - LEVEL, percent, MIN_CHANGE, d);
    return new Confirmation(
        winner, lastRound, b.n(), n.n(), b.mean(), n.mean(), percent, ci, w.p(), verdict);
  }

  /** Whether both sides have enough values for a verdict. */
  public boolean tested() {
    return verdict != null;
  }

  /**
   * {@code +12.3% [+8.1%, +16.5%] mib_per_s, better}, as the run prints it; {@code objective} names
   * the metric.
   */
  public String text(String objective) {
    if (!tested()) {
      return "too few ok trials for a verdict";
    }
    return String.format(
        Locale.ROOT,
        "%+.1f%% [%+.1f%%, %+.1f%%] %s, %s",
        percent,
        ci.low(),
        ci.high(),
        objective,
        verdict.text());
  }

  private static double mean(double[] values) {
    return Arrays.stream(values).average().orElse(Double.NaN);
  }

  private static double[] values(List<Value> done, int cell, int afterRep) {
    return done.stream()
        .filter(v -> v.cell() == cell && v.rep() > afterRep && !Double.isNaN(v.value()))
        .mapToDouble(Value::value)
        .toArray();
  }
}
