package io.tunelab.plan;

import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * A plan's cells as a list that makes each cell when asked for it: a plan of 100,000 cells holds
 * its compiled matrix, not 100,000 cells with their labels and maps.
 */
final class CellList extends AbstractList<Cell> implements RandomAccess {
  private final CellLayout layout;

  CellList(CellLayout layout) {
    this.layout = layout;
  }

  @Override
  public Cell get(int index) {
    return layout.cell(index + 1);
  }

  @Override
  public int size() {
    return layout.size();
  }
}
