package io.tunelab.matrix;

import io.tunelab.stats.Caveats;
import io.tunelab.stats.MeanEstimate;
import io.tunelab.stats.Summary;
import io.tunelab.stats.Welch;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * bench/false-positives.sh's simulation: pairs of cells drawn from one distribution (no difference
 * at all), each repeated as a {@link RepeatRule} says, then tested as {@code compare} tests a row
 * (Welch's t-test at 0.05 with n >= 3 on both sides; for an adaptive rule on each cell's two-stage
 * variance). The share of pairs marked significant is the false-positive rate, nominally 5 %.
 *
 * <p>Usage: {@code java -cp tunelab.jar:test-classes io.tunelab.matrix.FalsePositives [PAIRS
 * [SEED]]}
 */
public final class FalsePositives {
  /** The level compare marks a row significant at. */
  static final double ALPHA = 0.05;

  /** How the noise of a repetition is drawn. */
  enum Noise {
    /** Normal around the mean. */
    NORMAL,
    /**
     * Right-skewed: a lognormal with sigma 0.8 (skewness 3.7), shifted and scaled to the same mean
     * and standard deviation; the occasional slow run of timings.
     */
    SKEWED;

    double draw(SplittableRandom random, double mean, double sd) {
      double z = random.nextGaussian();
      if (this == NORMAL) {
        return mean + sd * z;
      }
      double s2 = 0.8 * 0.8;
      double m = Math.exp(s2 / 2);
      double d = Math.sqrt((Math.exp(s2) - 1) * Math.exp(s2));
      return mean + sd * (Math.exp(0.8 * z) - m) / d;
    }
  }

  /** One simulated setting: the noise, its coefficient of variation and the repeat rule. */
  record Case(Noise noise, double cv, RepeatRule rule) {
    String name() {
      String repeat =
          rule.adaptive()
              ? String.format(
                  Locale.ROOT,
                  "adaptive {min: %d, max: %d, target: %s%s}",
                  rule.min(),
                  rule.max(),
                  RepeatRule.percent(rule.target()),
                  rule.compares() ? ", compare" : "")
              : "fixed repeat: " + rule.max();
      return String.format(
          Locale.ROOT,
          "%-6s noise, cv %s, %s",
          noise.name().toLowerCase(Locale.ROOT),
          RepeatRule.percent(cv),
          repeat);
    }
  }

  /** What a case gave: how many pairs were marked significant, and the mean n per cell. */
  record Result(Case c, int pairs, int significant, double meanN) {
    double rate() {
      return 100.0 * significant / pairs;
    }

    String line() {
      return String.format(
          Locale.ROOT,
          "%-73s n %4.1f  false-positive rate %.1f%% (nominal 5%%)",
          c.name(),
          meanN,
          rate());
    }
  }

  private FalsePositives() {}

  /**
   * The bench's cases: both noises at three spreads, a fixed count and the adaptive rule, then the
   * adaptive rule with {@code compare} (one count for the pair, fixed by both pilots).
   */
  static List<Case> cases() {
    List<Case> cases = new ArrayList<>();
    for (Noise noise : Noise.values()) {
      for (double cv : new double[] {0.01, 0.02, 0.03}) {
        cases.add(new Case(noise, cv, RepeatRule.fixed(5, null)));
        cases.add(new Case(noise, cv, new RepeatRule(3, 12, 0.02, null)));
      }
    }
    // After the others, so that their seeds stay those of the figures already published.
    for (Noise noise : Noise.values()) {
      for (double cv : new double[] {0.01, 0.02, 0.03}) {
        cases.add(new Case(noise, cv, new RepeatRule(3, 12, 0.02, null, "x")));
      }
    }
    return cases;
  }

  /** Simulates {@code pairs} pairs of cells of one case from {@code seed}. */
  static Result run(Case c, int pairs, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    int significant = 0;
    long cells = 0;
    for (int i = 0; i < pairs; i++) {
      double[][] pair =
          c.rule().compares()
              ? pair(c, random)
              : new double[][] {repeat(c, random), repeat(c, random)};
      double[] base = pair[0];
      double[] next = pair[1];
      cells += base.length + next.length;
      if (significant(c.rule(), base, next)) {
        significant++;
      }
    }
    return new Result(c, pairs, significant, cells / (2.0 * pairs));
  }

  /** A cell's values: drawn one by one until the rule is satisfied. */
  private static double[] repeat(Case c, SplittableRandom random) {
    double[] values = new double[c.rule().max()];
    for (int n = 1; n <= values.length; n++) {
      values[n - 1] = c.noise().draw(random, 100, 100 * c.cv());
      double[] so = java.util.Arrays.copyOf(values, n);
      if (c.rule().satisfied(so)) {
        return so;
      }
    }
    return values;
  }

  /** A pair under a compare rule: both pilots, then both cells to the count they fix together. */
  private static double[][] pair(Case c, SplittableRandom random) {
    RepeatRule rule = c.rule();
    double[] base = new double[rule.max()];
    double[] next = new double[rule.max()];
    for (int i = 0; i < rule.min(); i++) {
      base[i] = c.noise().draw(random, 100, 100 * c.cv());
      next[i] = c.noise().draw(random, 100, 100 * c.cv());
    }
    int n =
        rule.plannedForRatios(
            java.util.Arrays.copyOf(base, rule.min()),
            List.of(java.util.Arrays.copyOf(next, rule.min())));
    for (int i = rule.min(); i < n; i++) {
      base[i] = c.noise().draw(random, 100, 100 * c.cv());
      next[i] = c.noise().draw(random, 100, 100 * c.cv());
    }
    return new double[][] {java.util.Arrays.copyOf(base, n), java.util.Arrays.copyOf(next, n)};
  }

  /** What compare marks: Welch's t-test below alpha, n >= 3 on both sides. */
  private static boolean significant(RepeatRule rule, double[] base, double[] next) {
    if (base.length < Caveats.MIN_N || next.length < Caveats.MIN_N) {
      return false;
    }
    return Welch.test(estimate(rule, base), estimate(rule, next), 0.95).p() < ALPHA;
  }

  private static MeanEstimate estimate(RepeatRule rule, double[] values) {
    Summary all = Summary.of(values);
    return rule.adaptive()
        ? MeanEstimate.twoStage(all, Summary.of(rule.pilot(values)))
        : MeanEstimate.of(all);
  }

  public static void main(String[] args) {
    int pairs = args.length > 0 ? Integer.parseInt(args[0]) : 20000;
    long seed = args.length > 1 ? Long.parseLong(args[1]) : 1;
    for (Case c : cases()) {
      System.out.println(run(c, pairs, seed++).line());
    }
  }
}
