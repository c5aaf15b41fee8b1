package io.tunelab.report;

import io.tunelab.report.Table.Block;
import io.tunelab.report.Table.Column;
import io.tunelab.report.Table.Text;
import io.tunelab.report.Table.Value;
import io.tunelab.store.ReportData.Cell;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Places cells in a report table by a {@link Layout}: the block each falls in and its title, the
 * leading columns of a row (the row axes) and their values.
 */
final class CellGrid {
  private final List<Cell> cells;
  private final AxisNames axes;
  private final Layout layout;

  CellGrid(List<Cell> cells, AxisNames axes, Layout layout) {
    this.cells = cells;
    this.axes = axes;
    this.layout = layout;
  }

  /** Fills the measurement entries of a cell's row. */
  interface RowFiller {
    void fill(Cell cell, List<Value> row);
  }

  /** A row per cell, blocks in order of first appearance. */
  Table table(List<Column> columns, RowFiller filler) {
    Map<String, Block> blocks = new LinkedHashMap<>();
    for (Cell cell : cells) {
      List<Value> row = rowValues(cell);
      filler.fill(cell, row);
      block(blocks, cell).rows().add(row);
    }
    return new Table(blockColumns(), columns, List.copyOf(blocks.values()));
  }

  /** The block of {@code cell} in {@code blocks}, added at its first cell. */
  Block block(Map<String, Block> blocks, Cell cell) {
    return blocks.computeIfAbsent(
        key(cell, layout.blocks()),
        k ->
            new Block(
                title(cell),
                layout.blocks().stream().map(a -> value(cell, a)).toList(),
                new ArrayList<>()));
  }

  private String title(Cell cell) {
    if (layout.blocks().equals(List.of(Layout.CASE_AXIS))) {
      return "case: " + value(cell, Layout.CASE_AXIS);
    }
    List<String> parts = new ArrayList<>();
    for (String axis : layout.blocks()) {
      parts.add(axes.shown(axis) + "=" + value(cell, axis));
    }
    return String.join("  ", parts);
  }

  List<Column> rowColumns() {
    List<Column> columns = new ArrayList<>();
    for (String axis : layout.rows()) {
      columns.add(new Column(axes.shown(axis), allNumbers(axis)));
    }
    return columns;
  }

  List<String> blockColumns() {
    return layout.blocks().stream().map(axes::shown).toList();
  }

  List<Value> rowValues(Cell cell) {
    List<Value> row = new ArrayList<>();
    for (String axis : layout.rows()) {
      row.add(new Text(value(cell, axis)));
    }
    return row;
  }

  // Numeric parameters (threads, iodepth) line up on the right like the measurements.
  private boolean allNumbers(String axis) {
    return cells.stream()
        .map(c -> c.params().get(axis))
        .allMatch(v -> v != null && v.matches("-?\\d+(\\.\\d+)?"));
  }

  List<String> distinct(String axis) {
    Set<String> values = new LinkedHashSet<>();
    for (Cell cell : cells) {
      values.add(value(cell, axis));
    }
    return List.copyOf(values);
  }

  static String value(Cell cell, String axis) {
    return cell.params().getOrDefault(axis, "-");
  }

  // NUL cannot appear in a YAML value, so joined keys cannot collide.
  static String key(Cell cell, List<String> axes) {
    StringBuilder key = new StringBuilder();
    for (String axis : axes) {
      key.append(value(cell, axis)).append('\u0000');
    }
    return key.toString();
  }
}
