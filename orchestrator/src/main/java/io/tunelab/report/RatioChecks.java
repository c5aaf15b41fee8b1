package io.tunelab.report;

import io.tunelab.Decimals;
import io.tunelab.TunelabException;
import io.tunelab.matrix.RepeatRule;
import io.tunelab.stats.Interval;
import io.tunelab.store.ReportData;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Whether an experiment run with {@code repeat: {…, compare: AXIS}} reached its target: per group
 * of cells (those sharing every other axis) and value of the axis, the ratio value / base with its
 * 95 % interval exactly as {@code compare --axis} computes it, and whether that interval lies
 * within {@code ±target} of the ratio.
 *
 * @param group the other axes' values, as {@code compare} labels its rows
 * @param base the axis's first value
 * @param value the value compared with it
 * @param change the %change of the means
 * @param interval the 95 % interval of the %change
 * @param halfWidth half the interval's width relative to the ratio, a fraction; NaN when unknown
 * @param baseN the base cell's measured trials
 * @param newN the compared cell's
 * @param boots whether boots were the unit (each side ran on two boots or more)
 */
public record RatioChecks(
    String group,
    String base,
    String value,
    double change,
    Interval interval,
    double halfWidth,
    int baseN,
    int newN,
    boolean boots,
    double target,
    int max) {

  /** Whether the interval is within the target. */
  public boolean held() {
    return halfWidth <= target;
  }

  /** Whether a side ran to {@code max} short of the target. */
  public boolean atMax() {
    return !held() && Math.max(baseN, newN) >= max;
  }

  /**
   * Every ratio of the experiment's compared axis, or none without such a rule or when the data
   * does not hold the rule's metric of job {@code all} (a report of another job).
   */
  public static List<RatioChecks> of(ReportData data) {
    ReportData.Repetitions r = data.repetitions();
    if (r == null || !r.rule().compares() || r.metric() == null) {
      return List.of();
    }
    RepeatRule rule = r.rule();
    String axis = rule.compare();
    Set<String> values = new LinkedHashSet<>();
    for (ReportData.Cell c : data.cells()) {
      String v = c.params().get(axis);
      if (v != null) {
        values.add(v);
      }
    }
    List<String> ordered = new ArrayList<>(values);
    List<RatioChecks> checks = new ArrayList<>();
    if (ordered.size() < 2) {
      return checks;
    }
    String base = ordered.get(0);
    for (String value : ordered.subList(1, ordered.size())) {
      Comparison c;
      try {
        c = Comparison.axis(data, axis, base, value, r.metric(), Comparison.Options.DEFAULT);
      } catch (TunelabException e) {
        continue;
      }
      for (Comparison.Row row : c.rows()) {
        checks.add(
            new RatioChecks(
                row.label(),
                base,
                value,
                row.change(),
                row.interval(),
                constant(row) ? 0 : halfWidth(row.interval()),
                row.base().n(),
                row.next().n(),
                row.boots() != null,
                rule.target(),
                rule.max()));
      }
    }
    return checks;
  }

  /** Both sides measured the same figure every time: the ratio is known exactly. */
  private static boolean constant(Comparison.Row row) {
    return row.boots() == null
        && row.base().n() >= 2
        && row.next().n() >= 2
        && row.base().summary().stddevSamp() == 0
        && row.next().summary().stddevSamp() == 0;
  }

  /**
   * Half the width of a %change interval relative to the ratio at its centre (on the log scale).
   */
  private static double halfWidth(Interval i) {
    double low = 1 + i.low() / 100;
    double high = 1 + i.high() / 100;
    if (!(low > 0) || !(high > 0)) {
      return Double.NaN;
    }
    // The interval is exp(log ratio ± h): its half-width relative to the ratio is sinh(h).
    return Math.sinh((Math.log(high) - Math.log(low)) / 2);
  }

  /** {@code bs=64M: mq-deadline/none +1.2% [-2.0, +4.5] ±3.2%: target held (n 3/3)}. */
  public String text() {
    String how;
    if (held()) {
      how = "target held";
    } else if (atMax()) {
      how = "short of the target at max";
    } else {
      how = "short of the target";
    }
    return String.format(
        Locale.ROOT,
        "%s: %s/%s %s %s %s: %s (n %d/%d%s)",
        group,
        value,
        base,
        Numbers.percent(change),
        Numbers.interval(interval),
        Double.isNaN(halfWidth) ? "±-" : "±" + Decimals.of(halfWidth * 100, 1) + "%",
        how,
        baseN,
        newN,
        boots ? ", boots as the unit" : "");
  }
}
