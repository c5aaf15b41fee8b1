package io.tunelab.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.matrix.Matrix.Order;
import io.tunelab.testing.GoldenFiles;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlanBuilderTest {

  @Test
  void sequentialRunsCellByCellWarmupsFirst() {
    GoldenFiles.assertMatches(
        "plan/sequential-4x3-warmup1.txt",
        render(PlanBuilder.build(4, 3, 1, Order.SEQUENTIAL, 42)));
  }

  @Test
  void shuffleWithSeed42IsFixedForever() {
    GoldenFiles.assertMatches(
        "plan/shuffle-4x3-warmup1-seed42.txt",
        render(PlanBuilder.build(4, 3, 1, Order.SHUFFLE, 42)));
  }

  @Test
  void sameSeedSameOrderOtherSeedOtherOrder() {
    assertEquals(
        List.copyOf(PlanBuilder.build(50, 3, 1, Order.SHUFFLE, 7)),
        List.copyOf(PlanBuilder.build(50, 3, 1, Order.SHUFFLE, 7)));
    assertNotEquals(
        List.copyOf(PlanBuilder.build(50, 3, 1, Order.SHUFFLE, 7)),
        List.copyOf(PlanBuilder.build(50, 3, 1, Order.SHUFFLE, 8)));
  }

  @Test
  void everyCellRepAppearsOnceAndWarmupsPrecedeMeasuredRuns() {
    for (Order order : Order.values()) {
      for (long seed = 0; seed < 20; seed++) {
        int cells = 1 + (int) (seed * 7 % 23);
        int repeat = 1 + (int) (seed % 4);
        int warmup = (int) (seed % 3);
        List<Trial> plan = PlanBuilder.build(cells, repeat, warmup, order, seed);
        assertEquals(cells * (repeat + warmup), plan.size());
        int[] seen = new int[cells + 1];
        boolean[][] done = new boolean[cells + 1][repeat + warmup + 1];
        for (int i = 0; i < plan.size(); i++) {
          Trial t = plan.get(i);
          assertEquals(i + 1, t.seq());
          assertTrue(t.cellOrdinal() >= 1 && t.cellOrdinal() <= cells);
          assertTrue(!done[t.cellOrdinal()][t.rep()], "twice: " + t);
          done[t.cellOrdinal()][t.rep()] = true;
          assertEquals(++seen[t.cellOrdinal()], t.rep(), "reps count up in run order: " + t);
          assertEquals(t.rep() <= warmup, t.warmup(), "warm-ups are each cell's first runs: " + t);
        }
        for (int c = 1; c <= cells; c++) {
          assertEquals(repeat + warmup, seen[c]);
        }
      }
    }
  }

  @Test
  void hundredThousandCellsArePlannedOnceEach() {
    List<Trial> plan = PlanBuilder.build(100_000, 3, 0, Order.SHUFFLE, 42);
    assertEquals(300_000, plan.size());
    assertEquals(300_000, plan.get(299_999).seq());
    long sum = 0;
    for (Trial t : plan) {
      sum += t.cellOrdinal();
    }
    assertEquals(3L * 100_000 * 100_001 / 2, sum);
  }

  @Test
  void refusesImpossiblePlans() {
    assertThrows(
        IllegalArgumentException.class, () -> PlanBuilder.build(3, 0, 0, Order.SEQUENTIAL, 1));
    assertThrows(
        IllegalArgumentException.class, () -> PlanBuilder.build(-1, 1, 0, Order.SEQUENTIAL, 1));
    assertThrows(
        IllegalArgumentException.class, () -> PlanBuilder.build(3, 1, -1, Order.SEQUENTIAL, 1));
    assertThrows(
        IllegalArgumentException.class,
        () -> PlanBuilder.build(Integer.MAX_VALUE, 3, 0, Order.SHUFFLE, 1));
    assertEquals(List.of(), PlanBuilder.build(0, 3, 1, Order.SHUFFLE, 1));
  }

  private static String render(List<Trial> plan) {
    StringBuilder out = new StringBuilder("seq cell rep\n");
    for (Trial t : plan) {
      out.append(
          String.format(
              "%3d %4d %3d%s%n", t.seq(), t.cellOrdinal(), t.rep(), t.warmup() ? " warmup" : ""));
    }
    return out.toString();
  }
}
