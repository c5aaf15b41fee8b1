package io.tunelab.plan;

import io.tunelab.matrix.Matrix;
import java.util.List;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Expands a loaded matrix into cells: the cross product of the axes in declared order (the first
 * axis varies slowest, like nested loops), minus {@code exclude}, plus {@code include} appended,
 * numbered from 1.
 */
public final class MatrixExpander {
  private MatrixExpander() {}

  /** Every cell, in order. */
  public static List<Cell> expand(Matrix m) {
    return stream(m).toList();
  }

  /**
   * Every cell, in order, as a list that makes a cell each time it is asked for one (equal to
   * {@link #expand}, in far less memory).
   */
  public static List<Cell> list(Matrix m) {
    return new CellList(new CellLayout(m));
  }

  /** The cells in order, made one at a time: a plan can store them without holding them all. */
  public static Stream<Cell> stream(Matrix m) {
    return StreamSupport.stream(
        Spliterators.spliteratorUnknownSize(
            new CellLayout(m).cells(),
            Spliterator.ORDERED | Spliterator.NONNULL | Spliterator.IMMUTABLE),
        false);
  }

  /** The number of cells {@link #expand} returns, without making them. */
  public static long count(Matrix m) {
    return new CellLayout(m).count();
  }
}
