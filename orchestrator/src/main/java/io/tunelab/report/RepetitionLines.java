package io.tunelab.report;

import io.tunelab.matrix.RepeatRule;
import io.tunelab.store.ReportData;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The lines a report gives an adaptive repeat rule: the rule, how many measured trials each cell
 * took, and the cells that reached the most short of the target.
 */
final class RepetitionLines {
  private RepetitionLines() {}

  static List<String> of(ReportData data) {
    ReportData.Repetitions r = data.repetitions();
    RepeatRule rule = r.rule();
    List<String> lines = new ArrayList<>();
    if (rule.compares()) {
      lines.add(
          String.format(
              Locale.ROOT,
              "repeat: %d to %d per cell, as many as the first %d of every cell of a group ask for"
                  + " to bring the 95%% CI of each ratio over %s (value / first value) of %s within"
                  + " ±%s",
              rule.min(),
              rule.max(),
              rule.min(),
              rule.compare(),
              r.metric(),
              RepeatRule.percent(rule.target())));
    } else {
      lines.add(
          String.format(
              Locale.ROOT,
              "repeat: %d to %d per cell, as many as the first %d ask for to bring the 95%%"
                  + " confidence half-width of %s within %s of the mean",
              rule.min(),
              rule.max(),
              rule.min(),
              r.metric(),
              RepeatRule.percent(rule.target())));
    }
    if (r.cells().isEmpty()) {
      return lines;
    }
    Map<Integer, List<Integer>> byN = new TreeMap<>();
    List<String> fellShort = new ArrayList<>();
    for (ReportData.CellRepetitions c : r.cells()) {
      byN.computeIfAbsent(c.n(), n -> new ArrayList<>()).add(c.ordinal());
      if (!rule.compares() && rule.shortOfTarget(c.n(), c.relativeHalfWidth())) {
        fellShort.add(
            String.format(
                Locale.ROOT,
                "cell %d (%s) ±%.1f%%",
                c.ordinal(),
                c.label(),
                c.relativeHalfWidth() * 100));
      }
    }
    List<String> counts = new ArrayList<>();
    byN.forEach((n, cells) -> counts.add(n + " (" + cells(cells) + ")"));
    lines.add("n per cell: " + String.join(", ", counts));
    if (!fellShort.isEmpty()) {
      lines.add(
          "short of the target after " + rule.max() + " trials: " + String.join(", ", fellShort));
    }
    List<RatioChecks> ratios = RatioChecks.of(data);
    if (!ratios.isEmpty()) {
      long held = ratios.stream().filter(RatioChecks::held).count();
      lines.add(
          "ratio per group, 95% CI as compare --axis gives it (target ±"
              + RepeatRule.percent(rule.target())
              + "): "
              + held
              + " of "
              + ratios.size()
              + " held");
      for (RatioChecks c : ratios) {
        lines.add("  " + c.text());
      }
    }
    return lines;
  }

  /** {@code cell 4}, {@code cells 1-3, 5}: ordinals in order, runs shortened. */
  private static String cells(List<Integer> ordinals) {
    StringBuilder out = new StringBuilder(ordinals.size() == 1 ? "cell " : "cells ");
    int i = 0;
    while (i < ordinals.size()) {
      int j = i;
      while (j + 1 < ordinals.size() && ordinals.get(j + 1) == ordinals.get(j) + 1) {
        j++;
      }
      if (i > 0) {
        out.append(", ");
      }
      out.append(ordinals.get(i));
      if (j > i) {
        out.append(j == i + 1 ? ", " : "-").append(ordinals.get(j));
      }
      i = j + 1;
    }
    return out.toString();
  }
}
