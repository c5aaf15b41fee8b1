package io.tunelab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.MatrixLoader;
import io.tunelab.plan.Cell;
import io.tunelab.plan.CellStepValues;
import io.tunelab.plan.ExperimentPlan;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CellVisitsTest {
  private static final String WORKLOAD = "workload: {command: run}\n";

  /** Cells 1 and 2 have threads=1, cells 3 and 4 threads=2; the cell step uses only threads. */
  private static final Matrix THREADS =
      MatrixLoader.load(
          "m.yaml",
          "name: t\ncell_setup:\n  - run: start-target ${threads}\nmatrix:\n  threads: [1, 2]\n"
              + "  local.vm.dirty_ratio: [10, 20]\n"
              + WORKLOAD);

  /** The same cells with a cell step that uses both axes' values: every cell is set up anew. */
  private static final Matrix BOTH =
      MatrixLoader.load(
          "m.yaml",
          "name: t\ncell_setup:\n  - run: start-target ${threads} ${ratio}\nmatrix:\n"
              + "  threads: [1, 2]\n  ratio: [10, 20]\n"
              + WORKLOAD);

  private static CellVisits visits(Matrix m) {
    return new CellVisits(CellStepValues.of(m));
  }

  /**
   * The steps a run of trials of these cells of {@code m} makes, as "setup N", "teardown N", "trial
   * N", and "keep N" for a cell left set up by the cell steps of the one before.
   */
  private static List<String> walk(Matrix m, CellVisits visits, int... ordinals) {
    List<Cell> cells = ExperimentPlan.cells(m).toList();
    List<String> steps = new ArrayList<>();
    for (int ordinal : ordinals) {
      CellVisits.Due due = visits.before(cells.get(ordinal - 1));
      if (due.teardown() != 0) {
        steps.add("teardown " + due.teardown());
      }
      if (due.setup() != 0) {
        steps.add((due.kept() ? "keep " : "setup ") + due.setup());
      }
      steps.add(
          due.failure() == null ? "trial " + ordinal : "failed " + ordinal + ": " + due.failure());
    }
    int last = visits.end();
    if (last != 0) {
      steps.add("teardown " + last);
    }
    return steps;
  }

  @Test
  void sequentialTrialsSetEachCellUpOnce() {
    assertEquals(
        List.of(
            "setup 1",
            "trial 1",
            "trial 1",
            "teardown 1",
            "setup 2",
            "trial 2",
            "trial 2",
            "teardown 2"),
        walk(BOTH, visits(BOTH), 1, 1, 2, 2));
  }

  @Test
  void shuffledTrialsSetACellUpAgainAtEveryChangeOfWhatTheStepsUse() {
    assertEquals(
        List.of(
            "setup 2",
            "trial 2",
            "teardown 2",
            "setup 1",
            "trial 1",
            "trial 1",
            "teardown 1",
            "setup 2",
            "trial 2",
            "teardown 2"),
        walk(BOTH, visits(BOTH), 2, 1, 1, 2));
  }

  @Test
  void aCellThatAgreesOnEveryValueTheStepsUseKeepsTheirWork() {
    assertEquals(
        List.of(
            "setup 1",
            "trial 1",
            "keep 2",
            "trial 2",
            "teardown 1",
            "setup 3",
            "trial 3",
            "keep 4",
            "trial 4",
            "keep 3",
            "trial 3",
            "teardown 3",
            "setup 1",
            "trial 1",
            "teardown 1"),
        walk(THREADS, visits(THREADS), 1, 2, 3, 4, 3, 1));
  }

  @Test
  void aCellThatCouldNotBeSetUpFailsItsTrialsWithoutTouchingTheOpenCell() {
    CellVisits visits = visits(BOTH);
    List<Cell> cells = ExperimentPlan.cells(BOTH).toList();
    assertEquals(new CellVisits.Due(0, 1, false, null), visits.before(cells.get(0)));
    assertEquals(1, visits.failed("mount: busy"));
    assertEquals(
        List.of(
            "failed 1: mount: busy",
            "setup 2",
            "trial 2",
            "failed 1: mount: busy",
            "trial 2",
            "teardown 2"),
        walk(BOTH, visits, 1, 2, 1, 2));
  }

  @Test
  void aKeptCellThatFailsIsSetUpAnewByTheNextOfItsValues() {
    CellVisits visits = visits(THREADS);
    List<Cell> cells = ExperimentPlan.cells(THREADS).toList();
    visits.before(cells.get(0));
    assertEquals(new CellVisits.Due(0, 2, true, null), visits.before(cells.get(1)));
    assertEquals(2, visits.failed("knob refused"));
    assertEquals(
        List.of("failed 2: knob refused", "setup 1", "trial 1", "teardown 1"),
        walk(THREADS, visits, 2, 1));
  }

  @Test
  void nothingIsOpenBeforeTheFirstTrialOrAfterTheEnd() {
    CellVisits visits = visits(BOTH);
    assertEquals(0, visits.end());
    visits.before(ExperimentPlan.cells(BOTH).toList().get(2));
    assertEquals(3, visits.end());
    assertEquals(0, visits.end());
  }
}
