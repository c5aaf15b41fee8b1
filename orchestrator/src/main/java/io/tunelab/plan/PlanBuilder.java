package io.tunelab.plan;

import io.tunelab.matrix.Matrix;
import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;
import java.util.SplittableRandom;

/**
 * Orders an experiment's trials: cell by cell (in ordinal order or along a given walk), a seeded
 * shuffle that any JVM reproduces from the seed, or seeded rounds (every cell once per round, each
 * round in a fresh order); with kernels, kernel-major, shuffled only inside each kernel's boot (so
 * rounds run within one boot of one release), and inside each part of equal cell-step values where
 * parts are given. Within a cell, repetition numbers follow run order and the first {@code warmup}
 * runs of each cell are its warm-ups, so warm-ups always precede the measured runs of their cell.
 */
public final class PlanBuilder {
  /** Keeps the boots' order apart from the trials' shuffle, which draws on the same seed. */
  private static final long BOOT_ORDER_STREAM = 0x9E3779B97F4A7C15L;

  private PlanBuilder() {}

  /**
   * The trials of {@code cellCount} cells with {@code warmup + repeat} runs each.
   *
   * @param seed used only for {@link Matrix.Order#SHUFFLE} and {@link Matrix.Order#ROUNDS}
   * @return an unmodifiable list backed by two int arrays (a few bytes per trial)
   * @throws IllegalArgumentException for negative counts, no repetitions, or more trials than a
   *     list can hold
   */
  public static List<Trial> build(
      int cellCount, int repeat, int warmup, Matrix.Order order, long seed) {
    return build(null, 1, 1, cellCount, repeat, warmup, order, seed);
  }

  /**
   * The blocks of one kernel group and one boot each, and the order they run in.
   *
   * @param groups each cell's kernel group (index {@code ordinal - 1}, groups from 0), or null for
   *     one group
   * @param boots how many boots each group gets
   * @param order the group of each block in run order, each group {@code boots} times (its boots in
   *     their order); null for kernel-major: every boot of group 0, then of group 1, …
   */
  public record Blocks(int[] groups, int groupCount, int boots, int[] order) {
    int[] visits() {
      if (order != null) {
        return order;
      }
      int[] major = new int[groupCount * boots];
      for (int i = 0; i < major.length; i++) {
        major[i] = i / boots;
      }
      return major;
    }
  }

  /**
   * Interleaved boots: {@code boots} rounds, each visiting every group once in a fresh order drawn
   * from {@code seed}, so that no group's boots all come early or late.
   */
  public static int[] interleaved(int groupCount, int boots, long seed) {
    SplittableRandom random = new SplittableRandom(seed ^ BOOT_ORDER_STREAM);
    int[] order = new int[groupCount * boots];
    for (int round = 0; round < boots; round++) {
      int from = round * groupCount;
      for (int g = 0; g < groupCount; g++) {
        order[from + g] = g;
      }
      shuffle(order, from, from + groupCount, random);
    }
    return order;
  }

  /**
   * The trials grouped kernel-major: blocks of one kernel group and one boot each, the groups in
   * order and each group's boots in order; within a block the cells in order (a seeded shuffle with
   * {@code shuffle}). A cell's runs are split across the boots as {@link BootPlan#round} says.
   *
   * @param groups each cell's kernel group (index {@code ordinal - 1}, groups from 0), or null for
   *     one group
   * @param boots how many boots each group gets
   */
  public static List<Trial> build(
      int[] groups,
      int groupCount,
      int boots,
      int cellCount,
      int repeat,
      int warmup,
      Matrix.Order order,
      long seed) {
    return build(
        new Blocks(groups, groupCount, boots, null),
        cellCount,
        repeat,
        warmup,
        order,
        seed,
        null,
        null);
  }

  /**
   * As {@link #build(int[], int, int, int, int, int, Matrix.Order, long)}, with the blocks in the
   * order {@code blocks} gives, the order of the cells inside a block and the parts a shuffle keeps
   * apart.
   *
   * @param walk the ordinals of all cells in the order a block visits them, or null for ordinal
   *     order; a shuffle with parts ignores it
   * @param parts each cell's part (index {@code ordinal - 1}, numbered from 0 in order of first
   *     appearance), or null for one: a shuffled block runs its parts one after the other, in that
   *     order, and shuffles the trials of each part alone
   */
  public static List<Trial> build(
      Blocks blocks,
      int cellCount,
      int repeat,
      int warmup,
      Matrix.Order order,
      long seed,
      int[] walk,
      int[] parts) {
    int[] groups = blocks.groups();
    int boots = blocks.boots();
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
    SplittableRandom random = new SplittableRandom(seed);
    if (!order.seeded()) {
      parts = null;
    }
    int[] visit = walk;
    if (visit == null || parts != null) {
      visit = new int[cellCount];
      for (int c = 0; c < cellCount; c++) {
        visit[c] = c + 1;
      }
    }
    if (parts != null) {
      visit = byPart(visit, parts);
    }
    int[] runsPerRound = new int[boots + 1];
    for (int run = 1; run <= perCell; run++) {
      runsPerRound[BootPlan.roundOf(run, warmup, repeat, boots)]++;
    }
    int at = 0;
    int[] roundOf = new int[blocks.groupCount()];
    for (int g : blocks.visits()) {
      int round = ++roundOf[g];
      if (order == Matrix.Order.ROUNDS) {
        for (int k = 0; k < runsPerRound[round]; k++) {
          at = oneRound(cells, at, visit, groups, g, parts, random);
        }
        continue;
      }
      int blockStart = at;
      int partStart = at;
      for (int v = 0; v < visit.length; v++) {
        int c = visit[v] - 1;
        if (groups == null || groups[c] == g) {
          if (parts != null && at > partStart && parts[cells[at - 1] - 1] != parts[c]) {
            shuffle(cells, partStart, at, random);
            partStart = at;
          }
          for (int k = 0; k < runsPerRound[round]; k++) {
            cells[at++] = c + 1;
          }
        }
      }
      if (order == Matrix.Order.SHUFFLE) {
        shuffle(cells, parts != null ? partStart : blockStart, at, random);
      }
    }
    int[] reps = new int[n];
    int[] runsSoFar = new int[cellCount + 1];
    for (int i = 0; i < n; i++) {
      reps[i] = ++runsSoFar[cells[i]];
    }
    return new Trials(cells, reps, warmup);
  }

  /**
   * Appends one round at {@code at}: every cell of group {@code g} once, shuffled (part by part,
   * where parts are given). Returns where the round ends.
   */
  private static int oneRound(
      int[] cells, int at, int[] visit, int[] groups, int g, int[] parts, SplittableRandom random) {
    int partStart = at;
    for (int ordinal : visit) {
      int c = ordinal - 1;
      if (groups != null && groups[c] != g) {
        continue;
      }
      if (parts != null && at > partStart && parts[cells[at - 1] - 1] != parts[c]) {
        shuffle(cells, partStart, at, random);
        partStart = at;
      }
      cells[at++] = ordinal;
    }
    shuffle(cells, partStart, at, random);
    return at;
  }

  /** {@code visit} reordered part by part, stably. */
  private static int[] byPart(int[] visit, int[] parts) {
    int count = 0;
    for (int p : parts) {
      count = Math.max(count, p + 1);
    }
    int[] starts = new int[count + 1];
    for (int ordinal : visit) {
      starts[parts[ordinal - 1] + 1]++;
    }
    for (int p = 0; p < count; p++) {
      starts[p + 1] += starts[p];
    }
    int[] sorted = new int[visit.length];
    for (int ordinal : visit) {
      sorted[starts[parts[ordinal - 1]]++] = ordinal;
    }
    return sorted;
  }

  /**
   * Fisher-Yates over {@code a[from, to)}, from the last position down, as the seed's documented
   * meaning.
   */
  private static void shuffle(int[] a, int from, int to, SplittableRandom random) {
    for (int i = to - 1; i > from; i--) {
      int j = from + random.nextInt(i - from + 1);
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
