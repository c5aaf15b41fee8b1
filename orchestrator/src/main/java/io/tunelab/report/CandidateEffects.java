package io.tunelab.report;

import io.tunelab.search.Effects;
import io.tunelab.store.ReportData;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@link Effects} of an experiment's cells on a metric, each axis by its short name: every
 * counted value of every cell, a search's {@code default} left out (it is no level of any axis).
 */
public final class CandidateEffects {
  private CandidateEffects() {}

  /** The effects on {@code metric} of {@code data}'s axes. */
  public static Effects of(ReportData data, String metric) {
    AxisNames axes = new AxisNames(data.paramNames());
    List<Effects.Observation> observations = new ArrayList<>();
    for (ReportData.Cell cell : data.cells()) {
      if (cell.label().equals("default")) {
        continue;
      }
      Map<String, String> levels = new LinkedHashMap<>();
      cell.params().forEach((axis, value) -> levels.put(axes.shown(axis), value));
      for (double v : cell.values(metric)) {
        observations.add(new Effects.Observation(levels, v));
      }
    }
    List<String> factors = data.paramNames().stream().map(axes::shown).toList();
    return Effects.of(metric, factors, observations);
  }
}
