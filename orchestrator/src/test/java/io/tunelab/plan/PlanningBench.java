package io.tunelab.plan;

import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.Matrix.Order;
import io.tunelab.matrix.MatrixLoader;
import io.tunelab.testing.Timings;
import java.util.List;

/**
 * bench/controller.sh's planning figures: expanding MatrixExpanderTest's 100,000-combination matrix
 * and building a shuffled plan of 100,000 cells x 3, in this JVM. The first round is printed on its
 * own (a cold JVM, as a user's run has); the rest as median, min and max.
 *
 * <p>Usage: {@code java -cp tunelab.jar:test-classes io.tunelab.plan.PlanningBench [ROUNDS]}
 */
public final class PlanningBench {
  private PlanningBench() {}

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    Matrix m = MatrixLoader.load("big.yaml", MatrixExpanderTest.bigMatrix());
    Timings coldExpand = new Timings("expand 93,750 cells, first");
    Timings coldPlan = new Timings("plan 100,000 cells x 3, shuffled, first");
    Timings expand = new Timings("expand 93,750 cells");
    Timings plan = new Timings("plan 100,000 cells x 3, shuffled");
    long made = 0;
    for (int round = 0; round <= rounds; round++) {
      long t0 = System.nanoTime();
      List<Cell> cells = MatrixExpander.expand(m);
      (round == 0 ? coldExpand : expand).since(t0);
      long t1 = System.nanoTime();
      List<Trial> trials = PlanBuilder.build(100_000, 3, 0, Order.SHUFFLE, 42);
      (round == 0 ? coldPlan : plan).since(t1);
      made += cells.size() + trials.size();
    }
    for (Timings t : List.of(coldExpand, expand, coldPlan, plan)) {
      System.out.println(t);
    }
    System.out.printf("(%d cells and trials made)%n", made);
  }
}
