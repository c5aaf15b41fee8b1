package io.tunelab.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.MatrixLoader;
import io.tunelab.testing.GoldenFiles;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code order: fewest-changes}, shuffles kept inside blocks, and the transitions of each order.
 */
class FewestChangesTest {
  private static final String WORKLOAD = "workload: {command: run}\n";

  private static Matrix load(String yaml) {
    return MatrixLoader.load("m.yaml", yaml + WORKLOAD);
  }

  /** threads (3 values) innermost, the only variable of the cell step, × 4 read_ahead_kb values. */
  private static final String THREADS_INNERMOST =
      "name: t\nsetup:\n  - run: echo loop0\n    capture: dev\n"
          + "cell_setup:\n  - run: echo ${threads} >> setups.log\n"
          + "matrix:\n  local.block.${dev}.read_ahead_kb: [128, 256, 512, 1024]\n"
          + "  threads: [1, 2, 4]\n";

  /**
   * Four axes of each cost: bs (plain), read_ahead_kb, the scheduler (freezes), threads (steps).
   */
  private static final String FOUR_AXES =
      "name: f\nsetup:\n  - run: echo loop0\n    capture: dev\n"
          + "cell_setup:\n  - run: start ${threads}\n"
          + "matrix:\n  bs: [1M, 4M]\n  local.block.${dev}.read_ahead_kb: [128, 1024]\n"
          + "  local.block.${dev}.scheduler: [none, mq-deadline]\n  threads: [1, 2]\n"
          + "repeat: 2\nwarmup: 1\n";

  private static Transitions transitions(Matrix m, Matrix.Order order) {
    List<Cell> cells = ExperimentPlan.cells(m).toList();
    return Transitions.of(
        cells, ExperimentPlan.trials(m, cells, order), CellStepValues.of(m), BootPlan.of(m));
  }

  private static String render(Matrix m) {
    ExperimentPlan plan = ExperimentPlan.of(m);
    StringBuilder out = new StringBuilder("seq cell label                                  rep\n");
    for (Trial t : plan.trials()) {
      Cell c = plan.cells().get(t.cellOrdinal() - 1);
      out.append(
          String.format(
              "%3d %4d %-40s %3d%s%n",
              t.seq(), t.cellOrdinal(), c.label(), t.rep(), t.warmup() ? " warmup" : ""));
    }
    return out.toString();
  }

  @Test
  void costlyAxesGoOutermostAndTheRestSnake() {
    GoldenFiles.assertMatches(
        "plan/fewest-changes.txt", render(load(FOUR_AXES + "order: fewest-changes\n")));
  }

  @Test
  void consecutiveCellsOfAFullCrossDifferInOneAxis() {
    Matrix m = load(FOUR_AXES + "order: fewest-changes\n");
    ExperimentPlan plan = ExperimentPlan.of(m);
    Cell previous = null;
    Set<Integer> seen = new HashSet<>();
    for (Trial t : plan.trials()) {
      Cell c = plan.cells().get(t.cellOrdinal() - 1);
      if (previous != null && previous.ordinal() != c.ordinal()) {
        assertTrue(seen.add(c.ordinal()), "cell " + c.label() + " comes back");
        int differ = 0;
        for (String axis : c.params().keySet()) {
          if (!c.params().get(axis).equals(previous.params().get(axis))) {
            differ++;
          }
        }
        assertEquals(1, differ, previous.label() + " -> " + c.label());
      } else if (previous == null) {
        seen.add(c.ordinal());
      }
      previous = c;
    }
    assertEquals(16, seen.size());
  }

  @Test
  void theCellStepRunsOncePerValueOfWhatItUses() {
    Matrix m = load(THREADS_INNERMOST);
    assertEquals(12, transitions(m, Matrix.Order.SEQUENTIAL).cellSetups());
    assertEquals(3, transitions(m, Matrix.Order.FEWEST_CHANGES).cellSetups());
    assertEquals(3, transitions(m, Matrix.Order.SHUFFLE).cellSetups());
    assertEquals(
        new Transitions(2, 12, 3, 0), transitions(load(FOUR_AXES), Matrix.Order.FEWEST_CHANGES));
  }

  @Test
  void aShuffleKeepsTheCellsOfEqualStepValuesTogether() {
    for (long seed = 1; seed < 20; seed++) {
      Matrix m = load(THREADS_INNERMOST + "order: shuffle\nrepeat: 3\nseed: " + seed + "\n");
      ExperimentPlan plan = ExperimentPlan.of(m);
      Set<String> left = new HashSet<>();
      String last = null;
      for (Trial t : plan.trials()) {
        String threads = plan.cells().get(t.cellOrdinal() - 1).vars().get("threads");
        if (!threads.equals(last)) {
          assertTrue(left.add(threads), "seed " + seed + ": threads=" + threads + " comes back");
          last = threads;
        }
      }
      assertEquals(3, left.size());
    }
  }

  @Test
  void aShuffleWithoutCellStepsOrKernelsIsTheSeedsShuffleOfAllTrials() {
    Matrix m =
        load(
            "name: s\nmatrix:\n  a: [1, 2, 3]\n  b: [x, y]\nrepeat: 3\norder: shuffle\nseed: 42\n");
    assertEquals(
        PlanBuilder.build(6, 3, 0, Matrix.Order.SHUFFLE, 42), ExperimentPlan.of(m).trials());
  }

  @Test
  void kernelsStayOutermost() {
    String kernels =
        "name: k\nroles: {client: cli1}\nmatrix:\n  bs: [1M, 4M]\n"
            + "  client.kernel: [6.1.0-50-amd64, 6.1.0-47-amd64]\n  client.vm.dirty_ratio: [10, 20]\n"
            + "workload: {command: run, on: client}\n";
    Matrix m = MatrixLoader.load("k.yaml", kernels + "order: fewest-changes\n");
    // To the second kernel and back to the first at the end.
    assertEquals(2, transitions(m, Matrix.Order.FEWEST_CHANGES).boots());
    assertEquals(2, transitions(m, Matrix.Order.SEQUENTIAL).boots());
  }
}
