package io.tunelab.run;

import io.tunelab.matrix.RatioGroups;
import io.tunelab.matrix.RepeatRule;
import io.tunelab.store.RunStore;
import io.tunelab.store.TrialRef;
import io.tunelab.workload.Sample;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Ends the repetitions of a group of cells under {@code repeat: {…, compare: AXIS}}: once every
 * cell of the group has its pilot, the pilots fix one count for all of them ({@link RatioGroups}),
 * and each cell that has that many measured values skips the rest. With more than one boot per
 * release the boots' means are the unit and the plan's boots are all there are: every planned trial
 * runs and the report judges the target.
 */
final class RatioTargets {
  private final RepeatRule rule;
  private final RatioGroups groups;
  private final RunStore store;
  private final boolean judged;
  private final Set<Integer> done = new HashSet<>();
  private final Map<Integer, Long> cellIds = new HashMap<>();
  private final List<Integer> justDone = new ArrayList<>();

  /**
   * @param judged whether the run may stop a group early: false with more than one boot per release
   */
  RatioTargets(RepeatRule rule, RatioGroups groups, RunStore store, boolean judged) {
    this.rule = rule;
    this.groups = groups;
    this.store = store;
    this.judged = judged;
  }

  boolean skips(TrialRef trial) {
    return done.contains(trial.cellOrdinal());
  }

  /** Groups that met the rule already (a run stopped before it skipped their rest). */
  List<String> settle(List<TrialRef> trials) {
    trials.forEach(t -> cellIds.putIfAbsent(t.cellOrdinal(), t.cellId()));
    if (!judged) {
      return List.of();
    }
    Map<Integer, double[]> values = values(null, null);
    List<String> told = new ArrayList<>();
    for (RatioGroups.Group g : groups.groups()) {
      String met = met(g, values);
      if (met != null) {
        told.add(met + skippedNote(skipJustDone()));
      }
    }
    return told;
  }

  /** Judges the trial's group with the trial's value added; how it met the rule, or null. */
  String judge(TrialRef trial, List<Sample> samples) {
    cellIds.putIfAbsent(trial.cellOrdinal(), trial.cellId());
    if (!judged || trial.warmup() || done.contains(trial.cellOrdinal())) {
      return null;
    }
    return met(groups.group(trial.cellOrdinal()), values(trial, samples));
  }

  /** Skips the pending trials of the cells the last judgement ended; returns how many. */
  int skipRest() {
    return skipJustDone();
  }

  private int skipJustDone() {
    int skipped = 0;
    for (int ordinal : justDone) {
      Long id = cellIds.get(ordinal);
      if (id != null) {
        skipped +=
            store.skipPendingTrials(
                id, "not needed: its group's pilots asked for no more to compare");
      }
    }
    justDone.clear();
    return skipped;
  }

  private static String skippedNote(int skipped) {
    return skipped == 0 ? "" : "; " + skipped + " trial(s) skipped";
  }

  /** Marks the group's cells that have their count; says so, or null when there are none. */
  private String met(RatioGroups.Group g, Map<Integer, double[]> values) {
    int n = groups.planned(g.ordinals().get(0), values);
    List<Integer> ended = new ArrayList<>();
    for (int o : g.ordinals()) {
      int have = values.getOrDefault(o, new double[0]).length;
      if (!done.contains(o) && ((n > 0 && have >= n) || have >= rule.max())) {
        ended.add(o);
      }
    }
    if (ended.isEmpty()) {
      return null;
    }
    done.addAll(ended);
    justDone.addAll(ended);
    String cells = ended.size() == 1 ? "cell " + ended.get(0) : "cells " + join(ended);
    if (n < 0 || !g.compared()) {
      return String.format(
          Locale.ROOT,
          "%s (group %s) reached max (%d measured trials)%s",
          cells,
          g.label(),
          rule.max(),
          g.compared() ? " before every pilot of its group ran" : ", with nothing to compare");
    }
    return String.format(
        Locale.ROOT,
        n >= rule.max()
            ? "%s (group %s) reached max (%d measured trials): the group's pilots asked for at least"
                + " that many to bring the 95%% CI of each ratio over %s within ±%s"
            : "%s (group %s) took the %d measured trials the group's pilots asked for to bring the"
                + " 95%% CI of each ratio over %s within ±%s",
        cells,
        g.label(),
        n,
        rule.compare(),
        RepeatRule.percent(rule.target()));
  }

  private static String join(List<Integer> ordinals) {
    return String.join(", ", ordinals.stream().map(String::valueOf).toList());
  }

  /**
   * Every known cell's measured values of the rule's metric, as its statistics have them, with the
   * trial's own after its cell's. A cell is known once a trial of it was among those to run.
   */
  private Map<Integer, double[]> values(TrialRef trial, List<Sample> samples) {
    List<String> metrics =
        rule.metric() != null ? List.of(rule.metric()) : CellTargets.DEFAULT_METRICS;
    for (String metric : metrics) {
      Map<Integer, double[]> byCell = new HashMap<>();
      boolean any = false;
      for (Map.Entry<Integer, Long> cell : cellIds.entrySet()) {
        double[] v = store.statisticsValues(cell.getValue(), Sample.AGGREGATE_JOB, metric);
        Double now =
            trial != null && trial.cellOrdinal() == cell.getKey()
                ? CellTargets.valueOf(samples, metric)
                : null;
        if (now != null) {
          v = Arrays.copyOf(v, v.length + 1);
          v[v.length - 1] = now;
        }
        any |= v.length > 0;
        byCell.put(cell.getKey(), v);
      }
      if (any) {
        return byCell;
      }
    }
    return Map.of();
  }
}
