package io.tunelab.report;

import io.tunelab.TunelabException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Which axes make the blocks, the rows and (optionally) the columns of a report table.
 *
 * @param blocks one block per combination of these axes' values
 * @param rows one row per combination of these axes' values within a block
 * @param columns null, or the axis whose values become columns (a pivot table)
 */
public record Layout(List<String> blocks, List<String> rows, String columns) {
  /** The axis that names cases. */
  public static final String CASE_AXIS = "case";

  public Layout {
    blocks = List.copyOf(blocks);
    rows = List.copyOf(rows);
  }

  /**
   * The classic layout of the SCST read-ahead tables: a block per case when there is a {@code case}
   * axis, else per combination of every axis but the last; a row per value of the rest.
   */
  public static Layout classic(List<String> axes) {
    return split(axes, null);
  }

  /**
   * The layout for {@code --rows} (axes as written, may be empty) and {@code --cols} (an axis or
   * null): the blocks are the axes left over. With columns but no rows, the axes left over are
   * split as in the classic layout.
   */
  public static Layout of(List<String> axes, List<String> rows, String columns) {
    if (new LinkedHashSet<>(rows).size() != rows.size()) {
      throw new TunelabException(TunelabException.BAD_INPUT, "--rows names an axis twice");
    }
    if (columns != null && rows.contains(columns)) {
      throw new TunelabException(
          TunelabException.BAD_INPUT, "axis " + columns + " cannot be both a row and the columns");
    }
    if (rows.isEmpty()) {
      List<String> rest = new ArrayList<>(axes);
      rest.remove(columns);
      return split(rest, columns);
    }
    List<String> blocks = new ArrayList<>(axes);
    blocks.removeAll(rows);
    blocks.remove(columns);
    return new Layout(blocks, rows, columns);
  }

  private static Layout split(List<String> axes, String columns) {
    List<String> blocks = new ArrayList<>();
    if (axes.contains(CASE_AXIS) && (columns == null || axes.size() > 1)) {
      blocks.add(CASE_AXIS);
    } else if (axes.size() > 1) {
      blocks.addAll(axes.subList(0, axes.size() - 1));
    }
    List<String> rows = new ArrayList<>(axes);
    rows.removeAll(blocks);
    return new Layout(blocks, rows, columns);
  }
}
