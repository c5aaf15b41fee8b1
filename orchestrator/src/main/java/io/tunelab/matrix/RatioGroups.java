package io.tunelab.matrix;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cells a {@code repeat: {…, compare: AXIS}} rule judges together: those that share every other
 * axis form a group, its cell of the axis's first value is the base, and the pilots of all its
 * cells fix one count for the group ({@link RepeatRule#plannedForRatios}). Nothing after the pilots
 * changes that count, so the test {@code compare} runs on the group keeps its nominal
 * false-positive rate (Stein's two-stage argument, as for one cell's mean).
 */
public final class RatioGroups {

  /**
   * One group.
   *
   * @param label the other axes' values, {@code bs=64M}; {@code (all)} without other axes
   * @param ordinals the cells in the order of the compared axis's values: the base first when the
   *     group has one
   * @param base whether the first of {@code ordinals} is the base
   */
  public record Group(String label, List<Integer> ordinals, boolean base) {
    public Group {
      ordinals = List.copyOf(ordinals);
    }

    /** Whether the group has a base and something to compare with it. */
    public boolean compared() {
      return base && ordinals.size() >= 2;
    }
  }

  private final RepeatRule rule;
  private final List<Group> groups;
  private final Map<Integer, Group> byOrdinal = new LinkedHashMap<>();

  private RatioGroups(RepeatRule rule, List<Group> groups) {
    this.rule = rule;
    this.groups = List.copyOf(groups);
    for (Group g : groups) {
      for (int o : g.ordinals()) {
        byOrdinal.put(o, g);
      }
    }
  }

  /**
   * The groups of the cells {@code paramsByOrdinal} (cell ordinal to its parameters, axis name to
   * value) under {@code rule}, whose compared axis is one of {@code axes}.
   */
  public static RatioGroups of(
      RepeatRule rule, List<Axis> axes, Map<Integer, Map<String, String>> paramsByOrdinal) {
    Axis compared = axes.stream().filter(a -> a.name().equals(rule.compare())).findFirst().get();
    Map<Map<String, String>, Map<String, Integer>> byKey = new LinkedHashMap<>();
    Map<Map<String, String>, String> labels = new LinkedHashMap<>();
    paramsByOrdinal.forEach(
        (ordinal, params) -> {
          Map<String, String> key = new LinkedHashMap<>(params);
          key.remove(compared.name());
          byKey
              .computeIfAbsent(key, k -> new LinkedHashMap<>())
              .put(params.get(compared.name()), ordinal);
          labels.computeIfAbsent(key, k -> label(axes, k));
        });
    List<Group> groups = new ArrayList<>();
    byKey.forEach(
        (key, byValue) -> {
          List<Integer> ordinals = new ArrayList<>();
          for (String v : compared.values()) {
            if (byValue.containsKey(v)) {
              ordinals.add(byValue.get(v));
            }
          }
          boolean base = byValue.containsKey(compared.values().get(0));
          groups.add(new Group(labels.get(key), ordinals, base));
        });
    return new RatioGroups(rule, groups);
  }

  private static String label(List<Axis> axes, Map<String, String> params) {
    List<String> parts = new ArrayList<>();
    for (Axis a : axes) {
      if (params.containsKey(a.name())) {
        parts.add(a.label() + "=" + params.get(a.name()));
      }
    }
    return parts.isEmpty() ? "(all)" : String.join("/", parts);
  }

  /** Every group, in the order their first cells come. */
  public List<Group> groups() {
    return groups;
  }

  /** The group of a cell. */
  public Group group(int ordinal) {
    return byOrdinal.get(ordinal);
  }

  /**
   * How many measured values each cell of {@code ordinal}'s group takes given every cell's values
   * so far (in repetition order; a cell without any may be absent): {@code max} for a group with
   * nothing to compare, -1 while a pilot of the group is incomplete.
   */
  public int planned(int ordinal, Map<Integer, double[]> values) {
    Group g = byOrdinal.get(ordinal);
    if (g == null || !g.compared()) {
      return rule.max();
    }
    List<double[]> pilots = new ArrayList<>();
    for (int o : g.ordinals()) {
      double[] v = values.getOrDefault(o, new double[0]);
      if (v.length < rule.min()) {
        return -1;
      }
      pilots.add(Arrays.copyOf(v, rule.min()));
    }
    return rule.plannedForRatios(pilots.get(0), pilots.subList(1, pilots.size()));
  }
}
