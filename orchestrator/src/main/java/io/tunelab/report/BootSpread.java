package io.tunelab.report;

import io.tunelab.store.ReportData;
import io.tunelab.store.ReportData.Boot;
import io.tunelab.store.ReportData.Cell;
import io.tunelab.store.ReportData.Trial;
import io.tunelab.store.TrialStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How much of a cell's spread comes from booting again: the sample standard deviation of the
 * per-boot means against the pooled one of the trials around their boot's mean. A boot is one
 * combination of the hosts' boot ids during a trial.
 *
 * @param boots how many boots the cell's measured trials ran on
 * @param between the sample standard deviation of the per-boot means; NaN for one boot
 * @param within the pooled standard deviation within boots ({@code N - boots} degrees of freedom);
 *     NaN when no boot has two trials
 */
public record BootSpread(int ordinal, String label, int boots, double between, double within) {

  /**
   * The spread of every cell whose ok, measured trials of {@code metric} recorded their boots; none
   * at all unless some cell's trials ran on two boots of one host.
   */
  public static List<BootSpread> of(ReportData data, String metric) {
    List<BootSpread> spreads = new ArrayList<>();
    boolean severalBoots = false;
    for (Cell cell : data.cells()) {
      Map<List<String>, List<Double>> byBoot = new LinkedHashMap<>();
      Map<String, Set<String>> bootIds = new HashMap<>();
      for (Trial t : cell.measured()) {
        Double v = metric == null ? null : t.value(metric);
        if (t.status() != TrialStatus.OK || v == null || t.boots().isEmpty()) {
          continue;
        }
        List<String> key = new ArrayList<>();
        for (Boot b : t.boots()) {
          key.add(b.host() + "=" + b.bootId());
          bootIds.computeIfAbsent(b.host(), h -> new HashSet<>()).add(b.bootId());
        }
        byBoot.computeIfAbsent(key, k -> new ArrayList<>()).add(v);
      }
      if (byBoot.isEmpty()) {
        continue;
      }
      severalBoots |= bootIds.values().stream().anyMatch(ids -> ids.size() > 1);
      spreads.add(spread(cell, byBoot.values()));
    }
    return severalBoots ? List.copyOf(spreads) : List.of();
  }

  private static BootSpread spread(Cell cell, Iterable<List<Double>> boots) {
    List<Double> means = new ArrayList<>();
    double within = 0;
    int n = 0;
    for (List<Double> values : boots) {
      double mean = mean(values);
      means.add(mean);
      for (double v : values) {
        within += (v - mean) * (v - mean);
      }
      n += values.size();
    }
    int k = means.size();
    double grand = mean(means);
    double between = 0;
    for (double m : means) {
      between += (m - grand) * (m - grand);
    }
    return new BootSpread(
        cell.ordinal(),
        cell.label(),
        k,
        k < 2 ? Double.NaN : Math.sqrt(between / (k - 1)),
        n == k ? Double.NaN : Math.sqrt(within / (n - k)));
  }

  private static double mean(List<Double> values) {
    double sum = 0;
    for (double v : values) {
      sum += v;
    }
    return sum / values.size();
  }

  /** {@code cell 2 (bs=64M): boots: 2, between-boot sd 1.250, within-boot sd 0.408}. */
  public String text() {
    return "cell "
        + ordinal
        + " ("
        + label
        + "): boots: "
        + boots
        + ", between-boot sd "
        + shown(between)
        + ", within-boot sd "
        + shown(within);
  }

  private static String shown(double sd) {
    return Double.isNaN(sd) ? "-" : Numbers.fixed(sd);
  }
}
