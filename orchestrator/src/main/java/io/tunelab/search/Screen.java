package io.tunelab.search;

import io.tunelab.matrix.Axis;
import io.tunelab.matrix.Search;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A two-level screen: every axis of two values or more at two levels (its first and last value
 * unless {@code search.levels} gives others), in a full factorial when it fits the budget twice,
 * else a Plackett–Burman design folded over (resolution IV: no main effect aliased with a
 * two-factor interaction) when that fits, else the Plackett–Burman design alone (resolution III).
 * Each round is one replicate of the design in a fresh seeded order; the rounds end when the budget
 * is spent, and the best design point by its mean is the winner the confirmation measures. Which
 * knobs mattered is {@code tunelab effects}' to say.
 */
public final class Screen implements Rounds {
  /** Plackett–Burman generators (1946): the first row of each design, {@code +} the high level. */
  private static final List<String> GENERATORS =
      List.of(
          "+++-+--",
          "++-+++---+-",
          "++++-+-++--+---",
          "++--++++-+-+----++-",
          "+++++-+-++--++--+-+----");

  private final long seed;
  private final boolean maximize;
  private final List<List<Integer>> levels;
  private final List<Integer> design;
  private final int replicates;
  private final String description;

  /**
   * The screen of {@code search} over {@code space}, whose axes are {@code axes}: at the levels
   * {@code search.levels()} gives, else at each axis's first and last value.
   *
   * @throws IllegalArgumentException as {@link #Screen(Space, long, boolean, int, List)}
   */
  public static Screen of(Search search, List<Axis> axes, Space space, long seed) {
    List<List<Integer>> levels = new ArrayList<>();
    for (Axis a : axes) {
      List<String> two = search.levels().get(a.name());
      levels.add(
          two == null
              ? List.of(0, a.values().size() - 1)
              : List.of(a.values().indexOf(two.get(0)), a.values().indexOf(two.get(1))));
    }
    return new Screen(space, seed, search.maximize(), search.raceBudget(), levels);
  }

  /** A screen at each axis's first and last value. */
  public Screen(Space space, long seed, boolean maximize, int raceBudget) {
    this(space, seed, maximize, raceBudget, firstAndLast(space));
  }

  private static List<List<Integer>> firstAndLast(Space space) {
    return space.sizes().stream().map(n -> List.of(0, n - 1)).toList();
  }

  /**
   * @param levels each axis's low and high level, as indices of its values
   * @throws IllegalArgumentException when the space has no axis of two values, more than 23, or the
   *     smallest design does not fit {@code raceBudget}
   */
  public Screen(
      Space space, long seed, boolean maximize, int raceBudget, List<List<Integer>> levels) {
    this.seed = seed;
    this.maximize = maximize;
    this.levels = List.copyOf(levels);
    List<Integer> factors = new ArrayList<>();
    for (int a = 0; a < space.sizes().size(); a++) {
      if (space.sizes().get(a) >= 2) {
        factors.add(a);
      }
    }
    int k = factors.size();
    if (k == 0 || k > 23) {
      throw new IllegalArgumentException(
          "a screen needs 1 to 23 axes of two values or more; this space has " + k);
    }
    List<boolean[]> rows;
    String name;
    if (k <= 10 && 2 * (1 << k) <= raceBudget) {
      rows = factorial(k);
      name = "full factorial 2^" + k;
    } else {
      String generator = GENERATORS.stream().filter(g -> g.length() >= k).findFirst().orElseThrow();
      rows = plackettBurman(generator, k);
      if (2 * rows.size() <= raceBudget) {
        rows = foldOver(rows);
        name = "Plackett-Burman " + (generator.length() + 1) + " folded over (resolution IV)";
      } else {
        name = "Plackett-Burman " + (generator.length() + 1) + " (resolution III)";
      }
    }
    if (rows.size() > raceBudget) {
      throw new IllegalArgumentException(
          "a screen of "
              + k
              + " axes needs "
              + rows.size()
              + " trials a replicate, more than the budget leaves for it ("
              + raceBudget
              + ")");
    }
    Map<List<Integer>, Integer> byIndices = space.byIndices();
    List<Integer> cells = new ArrayList<>();
    for (boolean[] row : rows) {
      List<Integer> at = new ArrayList<>();
      for (List<Integer> two : levels) {
        at.add(two.get(0));
      }
      for (int f = 0; f < k; f++) {
        int axis = factors.get(f);
        at.set(axis, levels.get(axis).get(row[f] ? 1 : 0));
      }
      Integer ordinal = byIndices.get(at);
      if (ordinal != null && !cells.contains(ordinal)) {
        cells.add(ordinal);
      }
    }
    if (cells.isEmpty()) {
      throw new IllegalArgumentException("every point of the screen's design is excluded");
    }
    this.design = List.copyOf(cells);
    this.replicates = Math.max(1, raceBudget / design.size());
    int dropped = rows.size() - design.size();
    this.description =
        name
            + ": "
            + design.size()
            + " cells x "
            + replicates
            + " replicates"
            + (dropped > 0 ? " (" + dropped + " design points excluded by the matrix)" : "");
  }

  /** The design and its size, as {@code plan} prints it. */
  public String description() {
    return description;
  }

  /** Each axis's low and high level, as indices of its values, in the matrix's order. */
  public List<List<Integer>> levels() {
    return levels;
  }

  /** The design's cells (ordinals of the space), in design order. */
  public List<Integer> design() {
    return design;
  }

  @Override
  public Decision next(List<Round> measured) {
    List<State> states = design.stream().map(c -> new State(c, "live", null)).toList();
    int winner = best(measured);
    if (measured.size() >= replicates) {
      return new Decision(List.of(), states, winner);
    }
    List<Integer> order = new ArrayList<>(design);
    Collections.shuffle(order, new Random(seed * 1_000_003L + measured.size() + 1));
    return new Decision(order, states, winner);
  }

  private int best(List<Round> measured) {
    int winner = 0;
    double bestMean = Double.NaN;
    for (int cell : design) {
      double sum = 0;
      int n = 0;
      for (Round r : measured) {
        Double v = r.values().get(cell);
        if (v != null && !v.isNaN()) {
          sum += v;
          n++;
        }
      }
      if (n == 0) {
        continue;
      }
      double mean = sum / n;
      if (winner == 0 || (maximize ? mean > bestMean : mean < bestMean)) {
        winner = cell;
        bestMean = mean;
      }
    }
    return winner;
  }

  private static List<boolean[]> factorial(int k) {
    List<boolean[]> rows = new ArrayList<>();
    for (int i = 0; i < 1 << k; i++) {
      boolean[] row = new boolean[k];
      for (int f = 0; f < k; f++) {
        row[f] = (i >> f & 1) == 1;
      }
      rows.add(row);
    }
    return rows;
  }

  /** The design of {@code generator}'s length + 1 runs: its cyclic shifts, then all low. */
  private static List<boolean[]> plackettBurman(String generator, int k) {
    int n = generator.length();
    List<boolean[]> rows = new ArrayList<>();
    for (int shift = 0; shift < n; shift++) {
      boolean[] row = new boolean[k];
      for (int f = 0; f < k; f++) {
        row[f] = generator.charAt((f - shift + n) % n) == '+';
      }
      rows.add(row);
    }
    rows.add(new boolean[k]);
    return rows;
  }

  /** The design and its mirror (every level swapped): main effects free of two-factor ones. */
  private static List<boolean[]> foldOver(List<boolean[]> rows) {
    List<boolean[]> all = new ArrayList<>(rows);
    for (boolean[] row : rows) {
      boolean[] mirror = new boolean[row.length];
      for (int f = 0; f < row.length; f++) {
        mirror[f] = !row[f];
      }
      all.add(mirror);
    }
    return all;
  }
}
