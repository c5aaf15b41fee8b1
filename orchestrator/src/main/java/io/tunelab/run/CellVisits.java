package io.tunelab.run;

import java.util.HashMap;
import java.util.Map;

/**
 * When cells are set up and torn down as trials go by, in plan order: a cell is set up before its
 * first trial and again whenever the trial before belonged to another cell; the open cell is torn
 * down before another is set up, and at the end. A cell that could not be set up is not tried
 * again: its later trials fail at once, and the cell that is open stays open.
 */
final class CellVisits {
  private int open;
  private final Map<Integer, String> failures = new HashMap<>();

  /**
   * What is due before a trial of a cell.
   *
   * @param teardown the cell to tear down first, or 0
   * @param setup the cell to set up, or 0
   * @param failure why the trial fails without running (its cell could not be set up), or null
   */
  record Due(int teardown, int setup, String failure) {}

  /** What is due before a trial of cell {@code ordinal}. */
  Due before(int ordinal) {
    String failure = failures.get(ordinal);
    if (failure != null) {
      return new Due(0, 0, failure);
    }
    if (open == ordinal) {
      return new Due(0, 0, null);
    }
    int previous = open;
    open = ordinal;
    return new Due(previous, ordinal, null);
  }

  /**
   * The open cell could not be set up: its trials fail with {@code why}. Returns the cell, whose
   * teardown is due now.
   */
  int failed(String why) {
    int cell = open;
    failures.put(cell, why);
    open = 0;
    return cell;
  }

  /** The cell still open, whose teardown is due at the end, or 0; none is open afterwards. */
  int end() {
    int cell = open;
    open = 0;
    return cell;
  }
}
