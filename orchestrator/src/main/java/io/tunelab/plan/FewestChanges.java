package io.tunelab.plan;

import io.tunelab.knob.KnobCatalogue;
import io.tunelab.matrix.Axis;
import io.tunelab.matrix.Kernels;
import io.tunelab.matrix.Matrix;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cell order of {@code order: fewest-changes}: the axes sorted by what a change of their value
 * costs (a kernel, then what the cell steps use, then queue-freezing knobs, then the rest; in
 * written order within each), the costliest outermost, and the cells walked in snake order: each
 * axis runs forward and backward in turn, so that consecutive cells differ in one axis where the
 * cells allow it.
 */
final class FewestChanges {
  private final int[][] index;
  private final int[] counters;

  private FewestChanges(int[][] index, int levels) {
    this.index = index;
    this.counters = new int[levels];
  }

  /** The ordinals of {@code cells} in the order to visit them. */
  static int[] walk(Matrix m, List<Cell> cells, CellStepValues steps) {
    List<Axis> axes = new ArrayList<>(m.axes());
    axes.sort(Comparator.comparingInt(a -> cost(a, steps)));
    int[][] index = new int[cells.size()][axes.size()];
    for (int l = 0; l < axes.size(); l++) {
      Axis axis = axes.get(l);
      Map<String, Integer> unlisted = new HashMap<>();
      for (int c = 0; c < cells.size(); c++) {
        String value = cells.get(c).params().get(axis.name());
        int i = axis.values().indexOf(value);
        if (i < 0) {
          // An include's value the axis does not list: after the listed ones, in cell order.
          i =
              axis.values().size()
                  + unlisted.computeIfAbsent(String.valueOf(value), v -> unlisted.size());
        }
        index[c][l] = i;
      }
    }
    List<Integer> all = new ArrayList<>();
    for (int c = 0; c < cells.size(); c++) {
      all.add(c);
    }
    List<Integer> visited = new ArrayList<>(cells.size());
    new FewestChanges(index, axes.size()).visit(all, 0, false, visited);
    int[] ordinals = new int[visited.size()];
    for (int i = 0; i < ordinals.length; i++) {
      ordinals[i] = cells.get(visited.get(i)).ordinal();
    }
    return ordinals;
  }

  /**
   * Visits {@code group} (cells equal on the levels above {@code level}) by the value of {@code
   * level}, backward when {@code reverse}; each level turns round every time it is entered anew.
   */
  private void visit(List<Integer> group, int level, boolean reverse, List<Integer> out) {
    if (level == counters.length) {
      out.addAll(group);
      return;
    }
    Map<Integer, List<Integer>> byValue = new LinkedHashMap<>();
    group.stream()
        .sorted(Comparator.comparingInt(c -> index[c][level]))
        .forEach(c -> byValue.computeIfAbsent(index[c][level], v -> new ArrayList<>()).add(c));
    List<List<Integer>> parts = new ArrayList<>(byValue.values());
    if (reverse) {
      Collections.reverse(parts);
    }
    for (List<Integer> part : parts) {
      visit(part, level + 1, counters[level]++ % 2 == 1, out);
    }
  }

  /** 0 for a kernel axis, 1 for one the cell steps use, 2 for a queue-freezing knob, else 3. */
  private static int cost(Axis axis, CellStepValues steps) {
    List<String> knobs = new ArrayList<>();
    switch (axis.kind()) {
      case KNOB -> knobs.add(axis.name());
      case CASES -> axis.cases().values().forEach(c -> knobs.addAll(c.keySet()));
      default -> {}
    }
    if (knobs.stream().anyMatch(Kernels::isKey)) {
      return 0;
    }
    if (steps.uses(axis)) {
      return 1;
    }
    if (knobs.stream().anyMatch(FewestChanges::freezes)) {
      return 2;
    }
    return 3;
  }

  /** Whether a role-qualified knob freezes its queue on write. */
  static boolean freezes(String roleKnob) {
    int dot = roleKnob.indexOf('.');
    return dot > 0 && KnobCatalogue.freezesQueue(roleKnob.substring(dot + 1));
  }
}
