package io.tunelab.report;

import io.tunelab.stats.MeanEstimate;
import io.tunelab.stats.Summary;
import io.tunelab.store.ReportData.Boot;
import io.tunelab.store.ReportData.Cell;
import io.tunelab.store.ReportData.Trial;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The two levels of a compared row whose sides each ran on two boots or more (Kalibera and Jones,
 * "Rigorous benchmarking in reasonable time", 2013): a boot is then the unit, each side's estimate
 * is the mean of its per-boot means with their spread, and each side shows how far its boots' means
 * scatter (between-boot) and its trials around their boot's mean (within-boot). Trials of one boot
 * share whatever that boot left behind, so they are not independent of each other: counted as the
 * unit they would make the interval too narrow.
 *
 * @param base the base side's levels
 * @param next the new side's levels
 */
public record BootLevels(Level base, Level next) {

  /** The fewest boots per side for which boots are the unit. */
  public static final int MIN_BOOTS = 2;

  /** Which more would narrow the row's interval the most. */
  public enum Advice {
    /** The boots' means scatter more than their trials explain: more boots. */
    BOOTS("more boots would narrow it; more repetitions per boot would barely"),
    /** The trials' noise is most of the boots' scatter: more repetitions per boot, or boots. */
    REPETITIONS("more repetitions per boot would narrow it as well as more boots");

    private final String text;

    Advice(String text) {
      this.text = text;
    }

    /** What to run more of, as the reports say it. */
    public String text() {
      return text;
    }

    /** {@code boots} or {@code repetitions}, as JSON writes it. */
    public String key() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * One side's levels.
   *
   * @param means the per-boot means of the counted trials, in the order the boots first ran
   * @param trials how many counted trials they hold
   * @param between the sample standard deviation of the per-boot means
   * @param within the pooled standard deviation of the trials around their boot's mean ({@code
   *     trials - boots} degrees of freedom); NaN when no boot ran two trials
   * @param estimate the mean of the per-boot means, with their variance over the count of boots
   *     ({@code boots - 1} degrees of freedom); that variance is at least the within-boot variance
   *     over the trials per boot, which is what a boot's mean would vary by without any boot effect
   */
  public record Level(
      List<Double> means, int trials, double between, double within, MeanEstimate estimate) {
    public Level {
      means = List.copyOf(means);
    }

    /** How many boots. */
    public int boots() {
      return means.size();
    }

    /**
     * The variance between boots that the trials' noise does not explain: the boots' means'
     * variance less the within-boot variance over the trials per boot, at least 0.
     */
    double betweenComponent() {
      double w = Double.isNaN(within) ? 0 : within * within;
      return Math.max(0, between * between - w * boots() / trials);
    }

    /** The within-boot variance's share of the variance of the side's mean. */
    double withinShare() {
      return Double.isNaN(within) ? 0 : within * within / trials;
    }

    /**
     * The levels of {@code metric} over the counted trials of {@code cell}; null when there are
     * none or one of them did not record its boots. A boot is one combination of the hosts' boot
     * ids.
     */
    static Level of(Cell cell, String metric) {
      Map<List<String>, List<Double>> byBoot = new LinkedHashMap<>();
      for (Trial t : cell.trials()) {
        Double v = t.value(metric);
        if (!t.counted() || v == null) {
          continue;
        }
        if (t.boots().isEmpty()) {
          return null;
        }
        List<String> key = new ArrayList<>();
        for (Boot b : t.boots()) {
          key.add(b.host() + "=" + b.bootId());
        }
        byBoot.computeIfAbsent(key, k -> new ArrayList<>()).add(v);
      }
      if (byBoot.isEmpty()) {
        return null;
      }
      List<Double> means = new ArrayList<>();
      double squares = 0;
      int n = 0;
      for (List<Double> values : byBoot.values()) {
        double mean = values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        means.add(mean);
        for (double v : values) {
          squares += (v - mean) * (v - mean);
        }
        n += values.size();
      }
      int k = means.size();
      Summary summary = Summary.of(means.stream().mapToDouble(Double::doubleValue).toArray());
      double between = k < 2 ? Double.NaN : summary.stddevSamp();
      double within = n == k ? Double.NaN : Math.sqrt(squares / (n - k));
      // A boot's mean varies at least as much as its trials' noise allows: a few boots whose
      // means agreed by chance must not make the interval narrower than the trials do.
      double floor = Double.isNaN(within) ? 0 : within * within * k / n;
      double variance = Math.max(between * between, floor);
      return new Level(
          means, n, between, within, new MeanEstimate(summary.mean(), variance / k, k - 1));
    }
  }

  /**
   * The levels of a pair of cells, or null when a side ran on fewer than {@link #MIN_BOOTS} boots
   * or did not record them: then trials are the unit, as without boots.
   */
  public static BootLevels of(Cell base, Cell next, String metric) {
    Level b = Level.of(base, metric);
    Level n = Level.of(next, metric);
    if (b == null || n == null || b.boots() < MIN_BOOTS || n.boots() < MIN_BOOTS) {
      return null;
    }
    return new BootLevels(b, n);
  }

  /**
   * More boots when the between-boot component of the two sides' variance of their means is at
   * least the within-boot one, else more repetitions: repetitions only shrink the within part.
   */
  public Advice advice() {
    double between =
        base.betweenComponent() / base.boots() + next.betweenComponent() / next.boots();
    double within = base.withinShare() + next.withinShare();
    return between >= within ? Advice.BOOTS : Advice.REPETITIONS;
  }

  /**
   * {@code base 2 boots × 2, between-boot ±1.2%, within-boot ±0.4%; new …; more boots would narrow
   * it …}.
   */
  public String text() {
    return "base " + side(base) + "; new " + side(next) + "; " + advice().text();
  }

  private static String side(Level l) {
    return l.boots()
        + " boots, "
        + l.trials()
        + " trials, between-boot sd "
        + Numbers.relative(l.between(), l.estimate().mean())
        + ", within-boot sd "
        + Numbers.relative(l.within(), l.estimate().mean());
  }
}
