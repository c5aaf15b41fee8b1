package io.tunelab.plan;

import io.tunelab.matrix.Matrix;
import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;
import java.util.SplittableRandom;

/**
 * Orders an experiment's trials: cell by cell, or a seeded shuffle of all trials that any JVM
 * reproduces from the seed. Within a cell, repetition numbers follow run order and the first {@code
 * warmup} runs of each cell are its warm-ups, so warm-ups always precede the measured runs of their
 * cell.
 */
public final class PlanBuilder {
  private PlanBuilder() {}

  /**
   * The trials of {@code cellCount} cells with {@code warmup + repeat} runs each.
   *
   * @param seed used only for {@link Matrix.Order#SHUFFLE}
   * @return an unmodifiable list backed by two int arrays (a few bytes per trial)
   * @throws IllegalArgumentException for negative counts, no repetitions, or more trials than a
   *     list can hold
   */
  public static List<Trial> build(
      int cellCount, int repeat, int warmup, Matrix.Order order, long seed) {
    if (cellCount < 0 || repeat < 1 || warmup < 0) {
      throw new IllegalArgumentException(
          "need cells >= 0, repeat >= 1, warmup >= 0; got "
              + cellCount
              + ", "
              + repeat
              + ", "
              + warmup);
    }
    int perCell = Math.addExact(repeat, warmup);
    long total = (long) cellCount * perCell;
    if (total > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          "too many trials: " + cellCount + " cells x " + perCell + " runs = " + total);
    }
    int n = (int) total;
    int[] cells = new int[n];
    for (int i = 0; i < n; i++) {
      cells[i] = i / perCell + 1;
    }
    if (order == Matrix.Order.SHUFFLE) {
      shuffle(cells, new SplittableRandom(seed));
    }
    int[] reps = new int[n];
    int[] runsSoFar = new int[cellCount + 1];
    for (int i = 0; i < n; i++) {
      reps[i] = ++runsSoFar[cells[i]];
    }
    return new Trials(cells, reps, warmup);
  }

  /** Fisher-Yates, from the last position down, as the seed's documented meaning. */
  private static void shuffle(int[] a, SplittableRandom random) {
    for (int i = a.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }

  /** The plan as a list view; trials are made on access, not stored. */
  private static final class Trials extends AbstractList<Trial> implements RandomAccess {
    private final int[] cells;
    private final int[] reps;
    private final int warmup;

    Trials(int[] cells, int[] reps, int warmup) {
      this.cells = cells;
      this.reps = reps;
      this.warmup = warmup;
    }

    @Override
    public Trial get(int index) {
      return new Trial(cells[index], reps[index], index + 1, reps[index] <= warmup);
    }

    @Override
    public int size() {
      return cells.length;
    }
  }
}
