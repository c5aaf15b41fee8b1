package io.tunelab.run;

import io.tunelab.plan.Cell;
import io.tunelab.plan.CellStepValues;
import java.util.HashMap;
import java.util.Map;

/**
 * When cells are set up and torn down as trials go by, in plan order. A trial of another cell than
 * the one before keeps the cell steps' work when the two cells agree on every value the cell steps
 * use ({@link CellStepValues}): the next cell is only checked, its knobs are written by its trial.
 * Otherwise the open cell is torn down and the next set up. The last is torn down at the end. A
 * cell that could not be set up is not tried again: its later trials fail at once, and the cell
 * that is open stays open.
 */
final class CellVisits {
  private final CellStepValues steps;
  private Cell open;
  private Cell setUp;
  private final Map<Integer, String> failures = new HashMap<>();

  CellVisits(CellStepValues steps) {
    this.steps = steps;
  }

  /**
   * What is due before a trial of a cell.
   *
   * @param teardown the cell to tear down first (the one whose cell steps ran), or 0
   * @param setup the cell to set up, or 0
   * @param kept whether that setup keeps the cell steps' work of the cell open before
   * @param failure why the trial fails without running (its cell could not be set up), or null
   */
  record Due(int teardown, int setup, boolean kept, String failure) {
    /** Nothing to do: the trial runs in the open cell, or fails for {@code failure}. */
    static Due none(String failure) {
      return new Due(0, 0, false, failure);
    }
  }

  /** What is due before a trial of {@code cell}. */
  Due before(Cell cell) {
    String failure = failures.get(cell.ordinal());
    if (failure != null) {
      return Due.none(failure);
    }
    if (open != null && open.ordinal() == cell.ordinal()) {
      return Due.none(null);
    }
    open = cell;
    if (setUp != null && steps.same(setUp, cell)) {
      return new Due(0, cell.ordinal(), true, null);
    }
    int previous = setUp == null ? 0 : setUp.ordinal();
    setUp = cell;
    return new Due(previous, cell.ordinal(), false, null);
  }

  /**
   * The open cell could not be set up: its trials fail with {@code why}. Returns the cell, whose
   * teardown is due now.
   */
  int failed(String why) {
    int cell = open.ordinal();
    failures.put(cell, why);
    open = null;
    setUp = null;
    return cell;
  }

  /**
   * The cell whose cell steps set up what is still open, its teardown due at the end, or 0; none is
   * open afterwards.
   */
  int end() {
    int cell = setUp == null ? 0 : setUp.ordinal();
    open = null;
    setUp = null;
    return cell;
  }
}
