package io.tunelab.report;

import java.util.List;

/**
 * A report table before it is formatted: columns, and rows grouped in blocks (one per value
 * combination of the block axes). Text and Markdown print the blocks one after another; CSV and
 * JSON flatten them, the block axes becoming leading columns.
 *
 * @param keyColumns the block axes, as shown
 */
public record Table(List<String> keyColumns, List<Column> columns, List<Block> blocks) {
  public Table {
    keyColumns = List.copyOf(keyColumns);
    columns = List.copyOf(columns);
    blocks = List.copyOf(blocks);
  }

  /**
   * A column; {@code right} aligns it right (numbers). Columns side by side under one heading (a
   * job's metrics) share a {@code group}; null for none.
   */
  public record Column(String name, boolean right, String group) {
    /** A column under no heading. */
    public Column(String name, boolean right) {
      this(name, right, null);
    }

    /** The name where a table has one header line (Markdown, CSV, JSON): {@code writer MiB/s}. */
    public String flatName() {
      return group == null ? name : group + " " + name;
    }
  }

  /**
   * One block: its title for people, the values of the block axes, and its rows (one value per
   * column).
   */
  public record Block(String title, List<String> key, List<List<Value>> rows) {}

  /** One entry of a table. */
  public sealed interface Value {}

  /** Text, shown as is. */
  public record Text(String text) implements Value {}

  /** A number, shown with three decimals; CSV and JSON keep full precision. */
  public record Number(double value) implements Value {}

  /**
   * Nothing to show: {@code shown} says why in text ({@code fail}, {@code skip}, {@code -}); CSV
   * leaves the field empty and JSON writes null.
   */
  public record Absent(String shown) implements Value {}

  /**
   * A mean with its population standard deviation, shown as {@code 62.668 ±2.3%}; CSV and JSON give
   * both numbers, the deviation in a column of its own named {@code <column> std}.
   */
  public record Measure(double mean, double std) implements Value {}
}
