package io.tunelab.run;

import io.tunelab.matrix.RatioGroups;
import io.tunelab.matrix.RepeatRule;
import io.tunelab.plan.BootPlan;
import io.tunelab.store.RunStore;
import io.tunelab.store.TrialRef;
import io.tunelab.store.TrialValue;
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
 * release the unit is a boot: a cell's value of a boot is the mean of its trials there, its pilot
 * the first boots, and the count a number of boots, whose later boots' trials are skipped (a boot
 * no trial needs is not made).
 */
final class RatioTargets {
  private final RepeatRule rule;
  private final RatioGroups groups;
  private final RunStore store;
  private final BootUnit boots;
  private final Set<Integer> done = new HashSet<>();
  private final Map<Integer, Long> cellIds = new HashMap<>();
  private final List<Integer> justDone = new ArrayList<>();

  /**
   * Boots as the unit.
   *
   * @param plan which boot of its release each repetition runs in
   * @param experimentId whose trials' values are read back per boot
   */
  record BootUnit(BootPlan plan, long experimentId) {}

  /**
   * @param rule the matrix's rule; with {@code boots} its {@code min} and {@code max} count boots
   * @param boots the boots as the unit, or null for the trials
   */
  RatioTargets(RepeatRule rule, RatioGroups groups, RunStore store, BootUnit boots) {
    this.rule = rule;
    this.groups = groups;
    this.store = store;
    this.boots = boots;
  }

  boolean skips(TrialRef trial) {
    return done.contains(trial.cellOrdinal());
  }

  /** Groups that met the rule already (a run stopped before it skipped their rest). */
  List<String> settle(List<TrialRef> trials) {
    trials.forEach(t -> cellIds.putIfAbsent(t.cellOrdinal(), t.cellId()));
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
    if (trial.warmup() || done.contains(trial.cellOrdinal())) {
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
                id,
                boots == null
                    ? "not needed: its group's pilots asked for no more to compare"
                    : "not needed: its group's pilot boots asked for no more boots to compare");
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
    String unit = boots == null ? "measured trials" : "boots";
    if (n < 0 || !g.compared()) {
      return String.format(
          Locale.ROOT,
          "%s (group %s) reached max (%d %s)%s",
          cells,
          g.label(),
          rule.max(),
          unit,
          g.compared() ? " before every pilot of its group ran" : ", with nothing to compare");
    }
    return String.format(
        Locale.ROOT,
        n >= rule.max()
            ? "%s (group %s) reached max (%d %s): the group's pilots asked for at least"
                + " that many to bring the 95%% CI of each ratio over %s within ±%s"
            : "%s (group %s) took the %d %s the group's pilots asked for to bring the"
                + " 95%% CI of each ratio over %s within ±%s",
        cells,
        g.label(),
        n,
        unit,
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
    if (boots != null) {
      return bootMeans(metrics, trial, samples);
    }
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

  /**
   * Every known cell's means per boot, of the boots whose measured trials have all ended, from the
   * first boot to the first that has not (the trial's own value counted): a boot's mean is that of
   * its ok trials; a boot whose trials all failed ends the list, so its group runs to max.
   */
  private Map<Integer, double[]> bootMeans(
      List<String> metrics, TrialRef trial, List<Sample> samples) {
    for (String metric : metrics) {
      List<TrialValue> ended =
          new ArrayList<>(store.trialValues(boots.experimentId(), Sample.AGGREGATE_JOB, metric));
      Double now = trial == null ? null : CellTargets.valueOf(samples, metric);
      if (trial != null) {
        ended.add(new TrialValue(trial.cellOrdinal(), trial.rep(), now == null ? Double.NaN : now));
      }
      if (ended.stream().noneMatch(v -> !Double.isNaN(v.value()))) {
        continue;
      }
      Map<Integer, double[]> byCell = new HashMap<>();
      for (int ordinal : cellIds.keySet()) {
        byCell.put(ordinal, bootMeans(ordinal, ended));
      }
      return byCell;
    }
    return Map.of();
  }

  private double[] bootMeans(int ordinal, List<TrialValue> ended) {
    BootPlan plan = boots.plan();
    Map<Integer, List<Double>> byBoot = new HashMap<>();
    Map<Integer, Integer> count = new HashMap<>();
    for (TrialValue v : ended) {
      if (v.cellOrdinal() == ordinal) {
        int boot = plan.round(v.rep());
        count.merge(boot, 1, Integer::sum);
        if (!Double.isNaN(v.value())) {
          byBoot.computeIfAbsent(boot, b -> new ArrayList<>()).add(v.value());
        }
      }
    }
    List<Double> means = new ArrayList<>();
    for (int boot = 1; boot <= plan.boots(); boot++) {
      List<Double> values = byBoot.get(boot);
      if (count.getOrDefault(boot, 0) < plan.measuredIn(boot) || values == null) {
        break;
      }
      means.add(values.stream().mapToDouble(Double::doubleValue).average().orElseThrow());
    }
    return means.stream().mapToDouble(Double::doubleValue).toArray();
  }
}
