package io.tunelab.run;

import io.tunelab.matrix.RepeatRule;
import io.tunelab.store.RunStore;
import io.tunelab.store.TrialRef;
import io.tunelab.workload.Sample;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Ends a cell's repetitions once its {@link RepeatRule} is met: the cell's remaining trials are
 * skipped, wherever the plan's order puts them. Judged on the values the cell's statistics use, so
 * a resumed run goes on with the rule where it stopped.
 */
final class CellTargets {
  /** The metrics a rule without {@code metric:} judges, the first one recorded. */
  static final List<String> DEFAULT_METRICS = List.of("mib_per_s", "seconds");

  private final RepeatRule rule;
  private final RunStore store;
  private final Set<Long> done = new HashSet<>();
  private final RatioTargets ratios;

  CellTargets(RepeatRule rule, RunStore store) {
    this(rule, store, null);
  }

  /** With {@code ratios} judging the groups of a rule with {@code compare:} (null without). */
  CellTargets(RepeatRule rule, RunStore store, RatioTargets ratios) {
    this.rule = rule;
    this.store = store;
    this.ratios = ratios;
  }

  /** Whether this trial's cell needs no more trials. */
  boolean skips(TrialRef trial) {
    return ratios != null ? ratios.skips(trial) : done.contains(trial.cellId());
  }

  /**
   * The cells among {@code trials} that met the rule already (a run stopped between a cell's last
   * trial and the skipping of the rest): their trials are skipped now. Returns what to tell.
   */
  List<String> settle(List<TrialRef> trials) {
    if (ratios != null) {
      return ratios.settle(trials);
    }
    if (!rule.adaptive()) {
      return List.of();
    }
    Map<Long, TrialRef> cells = new LinkedHashMap<>();
    trials.forEach(t -> cells.putIfAbsent(t.cellId(), t));
    List<String> told = new ArrayList<>();
    for (TrialRef t : cells.values()) {
      String met = met(t.cellId(), stored(t.cellId(), null));
      if (met != null) {
        told.add(skipped(t, met, skipRest(t, met)));
      }
    }
    return told;
  }

  /**
   * Judges a trial's cell with the trial's own samples (an ok, measured trial) added to those
   * stored; when the cell is done, remembers it and returns how it met the rule, else null. The
   * store is told by {@link #skipRest}, once the trial is committed.
   */
  String judge(TrialRef trial, List<Sample> samples) {
    if (ratios != null) {
      return ratios.judge(trial, samples);
    }
    if (!rule.adaptive() || trial.warmup() || done.contains(trial.cellId())) {
      return null;
    }
    return met(trial.cellId(), stored(trial.cellId(), samples));
  }

  /** Skips the cell's other trials in the store, saying why; returns how many. */
  int skipRest(TrialRef trial, String met) {
    if (ratios != null) {
      return ratios.skipRest();
    }
    return store.skipPendingTrials(trial.cellId(), "not needed: the cell " + met);
  }

  /** The line that tells the cell is done. */
  static String skipped(TrialRef trial, String met, int skipped) {
    String line = met.startsWith("cell") ? met : "cell " + trial.cellOrdinal() + " " + met;
    return skipped == 0 ? line : line + "; " + skipped + " trial(s) skipped";
  }

  private String met(long cellId, double[] values) {
    if (!rule.satisfied(values)) {
      return null;
    }
    done.add(cellId);
    double half = RepeatRule.relativeHalfWidth(values);
    String how;
    if (half <= rule.target()) {
      how = "met its target after %d measured trials: ±%.2f%% of the mean, target %s";
    } else if (values.length >= rule.max()) {
      how = "reached max (%d measured trials) at ±%.2f%% of the mean, short of its target %s";
    } else {
      // The pilot fixed the count; the interval of all values may come out a little wider.
      how = "took the %d measured trials its pilot asked for: ±%.2f%% of the mean, target %s";
    }
    return String.format(
        Locale.ROOT, how, values.length, half * 100, RepeatRule.percent(rule.target()));
  }

  /**
   * The cell's values of its main metric: those stored, and {@code current}'s (null for none) after
   * them.
   */
  private double[] stored(long cellId, List<Sample> current) {
    List<String> metrics = rule.metric() != null ? List.of(rule.metric()) : DEFAULT_METRICS;
    for (String metric : metrics) {
      double[] before = store.statisticsValues(cellId, Sample.AGGREGATE_JOB, metric);
      Double now = current == null ? null : valueOf(current, metric);
      if (before.length == 0 && now == null) {
        continue;
      }
      if (now == null) {
        return before;
      }
      double[] all = Arrays.copyOf(before, before.length + 1);
      all[before.length] = now;
      return all;
    }
    return new double[0];
  }

  static Double valueOf(List<Sample> samples, String metric) {
    for (Sample s : samples) {
      if (s.job().equals(Sample.AGGREGATE_JOB) && s.metric().equals(metric)) {
        return s.value();
      }
    }
    return null;
  }
}
