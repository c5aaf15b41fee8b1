package io.tunelab.search;

import io.tunelab.matrix.Axis;
import io.tunelab.plan.Cell;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The cells a search may choose from, each as its value's index on every axis, so that a
 * candidate's neighbours (one axis moved by one value) can be found. A cell an exclusion removed is
 * not in it, and has no index.
 *
 * @param sizes each axis's number of values, in the matrix's order
 * @param indices each cell's indices, by ordinal (the first entry is cell 1's)
 */
public record Space(List<Integer> sizes, List<List<Integer>> indices) {
  public Space {
    sizes = List.copyOf(sizes);
    indices = List.copyOf(indices);
  }

  /** The space of a matrix's axes and the cells its plan expanded them into. */
  public static Space of(List<Axis> axes, List<Cell> cells) {
    List<Integer> sizes = axes.stream().map(a -> a.values().size()).toList();
    List<List<Integer>> indices = new ArrayList<>();
    for (Cell cell : cells) {
      List<Integer> at = new ArrayList<>();
      for (Axis a : axes) {
        at.add(Math.max(0, a.values().indexOf(cell.params().get(a.name()))));
      }
      indices.add(at);
    }
    return new Space(sizes, indices);
  }

  /** How many cells. */
  public int cells() {
    return indices.size();
  }

  /** Cell ordinal by its indices; absent when an exclusion removed that combination. */
  Map<List<Integer>, Integer> byIndices() {
    Map<List<Integer>, Integer> by = new HashMap<>();
    for (int i = 0; i < indices.size(); i++) {
      by.putIfAbsent(indices.get(i), i + 1);
    }
    return by;
  }
}
