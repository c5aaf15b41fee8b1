package io.tunelab.search;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.hipparchus.distribution.continuous.TDistribution;
import org.hipparchus.random.SobolSequenceGenerator;

/**
 * Iterated racing (as F-race and irace): candidates spread over the space by a Sobol sequence
 * shifted by the seed; every round runs each live candidate once, in a fresh seeded order; from the
 * third round on, a candidate that a paired t-test over the rounds it shares with the best (at
 * least three) finds worse at 95 % is eliminated, and the field is made whole again with candidates
 * next to the survivors (one axis moved by one value), the best's first. The race ends when one
 * candidate is left and none near it is untried; the run's budget ends it before that otherwise.
 *
 * <p>{@link #next} is a function of the rounds given: the race is replayed from its seed each time,
 * so a resumed run decides exactly as an uninterrupted one.
 */
public final class Race implements Rounds {
  private static final int FIRST_TEST_ROUND = 3;
  private static final int MIN_SHARED = 3;
  private static final double ALPHA = 0.05;
  private static final int MIN_CANDIDATES = 4;
  private static final int ROUNDS_PER_CANDIDATE = 6;

  private final Space space;
  private final long seed;
  private final boolean maximize;
  private final int field;
  private final Map<List<Integer>, Integer> byIndices;

  /**
   * @param raceBudget the trials the race may spend: the first field is a sixth of it (at least 4,
   *     at most every cell), so that each first candidate can run about six rounds
   */
  public Race(Space space, long seed, boolean maximize, int raceBudget) {
    this.space = space;
    this.seed = seed;
    this.maximize = maximize;
    this.field =
        Math.min(space.cells(), Math.max(MIN_CANDIDATES, raceBudget / ROUNDS_PER_CANDIDATE));
    this.byIndices = space.byIndices();
  }

  /** How many candidates the race starts with. */
  public int field() {
    return field;
  }

  @Override
  public Decision next(List<Round> measured) {
    State state = new State(first());
    List<Rounds.State> changed = List.of();
    for (Round round : measured) {
      changed = state.after(round);
    }
    List<Integer> order = new ArrayList<>(state.live);
    Collections.shuffle(order, new Random(seed * 31 + measured.size() + 1));
    int winner = state.best();
    List<Rounds.State> states = new ArrayList<>();
    state.live.forEach(c -> states.add(new Rounds.State(c, "live", null)));
    states.addAll(changed);
    boolean over = !measured.isEmpty() && state.live.size() <= 1;
    return new Decision(over ? List.of() : order, states, winner);
  }

  /** The first field: Sobol points shifted by the seed, each on its nearest cell, no cell twice. */
  List<Integer> first() {
    int d = space.sizes().size();
    Set<Integer> chosen = new LinkedHashSet<>();
    if (space.cells() <= field || d == 0) {
      for (int c = 1; c <= space.cells() && chosen.size() < field; c++) {
        chosen.add(c);
      }
      return new ArrayList<>(chosen);
    }
    Random shift = new Random(seed);
    double[] u = new double[d];
    for (int j = 0; j < d; j++) {
      u[j] = shift.nextDouble();
    }
    SobolSequenceGenerator sobol = new SobolSequenceGenerator(d);
    for (int tries = 0; chosen.size() < field && tries < 64 * field; tries++) {
      double[] p = sobol.nextVector();
      List<Integer> at = new ArrayList<>();
      for (int j = 0; j < d; j++) {
        double x = p[j] + u[j];
        at.add((int) Math.floor((x - Math.floor(x)) * space.sizes().get(j)));
      }
      Integer cell = byIndices.get(at);
      if (cell != null) {
        chosen.add(cell);
      }
    }
    return new ArrayList<>(chosen);
  }

  /** The race as the rounds so far left it. */
  private final class State {
    final Set<Integer> live = new LinkedHashSet<>();
    final Set<Integer> tried = new LinkedHashSet<>();
    final Map<Integer, Map<Integer, Double>> results = new TreeMap<>();
    int rounds;

    State(List<Integer> first) {
      live.addAll(first);
      tried.addAll(first);
    }

    /** Records a round; returns the candidates it eliminated, with why. */
    List<Rounds.State> after(Round round) {
      rounds++;
      round
          .values()
          .forEach(
              (cell, v) ->
                  results.computeIfAbsent(cell, c -> new TreeMap<>()).put(round.number(), v));
      List<Rounds.State> out = new ArrayList<>();
      if (rounds < FIRST_TEST_ROUND || live.size() < 2) {
        return out;
      }
      int best = best();
      for (int c : new ArrayList<>(live)) {
        String why = c == best ? null : worse(c, best);
        if (why != null) {
          live.remove(c);
          out.add(new Rounds.State(c, "eliminated", why));
        }
      }
      if (live.size() < field) {
        refill(round.number());
      }
      return out;
    }

    /** Why {@code c} is out: failed every round it ran, or worse than the best; null if neither. */
    private String worse(int c, int best) {
      Map<Integer, Double> mine = results.getOrDefault(c, Map.of());
      if (mine.size() >= MIN_SHARED && mine.values().stream().allMatch(v -> v.isNaN())) {
        return "failed in every round it ran (" + span(new ArrayList<>(mine.keySet())) + ")";
      }
      Map<Integer, Double> theirs = results.getOrDefault(best, Map.of());
      List<Integer> shared = new ArrayList<>();
      List<Double> diffs = new ArrayList<>();
      for (Map.Entry<Integer, Double> e : mine.entrySet()) {
        Double b = theirs.get(e.getKey());
        if (b != null && !b.isNaN() && !e.getValue().isNaN()) {
          shared.add(e.getKey());
          diffs.add(maximize ? b - e.getValue() : e.getValue() - b);
        }
      }
      if (shared.size() < MIN_SHARED) {
        return null;
      }
      double p = pWorse(diffs);
      if (p >= ALPHA) {
        return null;
      }
      return String.format(
          Locale.ROOT,
          "worse than cell %d over rounds %s, %s",
          best,
          span(shared),
          p < 0.001 ? "p < 0.001" : String.format(Locale.ROOT, "p = %.3f", p));
    }

    /**
     * The live candidate with the best mean so far, among those measured in as many rounds as the
     * test asks (or as the most measured has, when none has that many yet): a newcomer's one lucky
     * round does not win. 0 before any value.
     */
    int best() {
      int most = live.stream().mapToInt(this::measured).max().orElse(0);
      int enough = Math.min(MIN_SHARED, most);
      return live.stream()
          .filter(c -> !Double.isNaN(mean(c)) && measured(c) >= enough)
          .max(
              Comparator.comparingDouble((Integer c) -> maximize ? mean(c) : -mean(c))
                  .thenComparingInt(c -> -c))
          .orElse(0);
    }

    private int measured(int cell) {
      return (int)
          results.getOrDefault(cell, Map.of()).values().stream().filter(v -> !v.isNaN()).count();
    }

    private double mean(int cell) {
      return results.getOrDefault(cell, Map.of()).values().stream()
          .filter(v -> !v.isNaN())
          .mapToDouble(Double::doubleValue)
          .average()
          .orElse(Double.NaN);
    }

    /**
     * New candidates next to the survivors until the field is whole again: every neighbour of the
     * best first (one axis moved by one value, in a seeded order), then the next best's.
     */
    private void refill(int round) {
      Random random = new Random(seed * 1_000_003L + round);
      List<Integer> ranked = new ArrayList<>(live);
      ranked.sort(
          Comparator.comparingDouble((Integer c) -> maximize ? -value(c) : value(c))
              .thenComparingInt(c -> c));
      for (int survivor : ranked) {
        List<Integer> near = neighbours(survivor);
        Collections.shuffle(near, random);
        for (int cell : near) {
          if (live.size() >= field) {
            return;
          }
          if (tried.add(cell)) {
            live.add(cell);
          }
        }
      }
    }

    /** The mean for ranking: a candidate without a value ranks last. */
    private double value(int cell) {
      double m = mean(cell);
      return Double.isNaN(m) ? (maximize ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY) : m;
    }

    private List<Integer> neighbours(int cell) {
      List<Integer> near = new ArrayList<>();
      List<Integer> at = space.indices().get(cell - 1);
      for (int axis = 0; axis < at.size(); axis++) {
        for (int step : new int[] {-1, 1}) {
          int moved = at.get(axis) + step;
          if (moved >= 0 && moved < space.sizes().get(axis)) {
            List<Integer> to = new ArrayList<>(at);
            to.set(axis, moved);
            Integer n = byIndices.get(to);
            if (n != null) {
              near.add(n);
            }
          }
        }
      }
      return near;
    }
  }

  /** One-sided p of a paired t-test that the differences' mean is above 0. */
  static double pWorse(List<Double> diffs) {
    int n = diffs.size();
    double mean = diffs.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    double ss = diffs.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum();
    double sd = Math.sqrt(ss / (n - 1));
    if (sd == 0) {
      return mean > 0 ? 0 : 1;
    }
    double t = mean / (sd / Math.sqrt(n));
    return 1 - new TDistribution(n - 1).cumulativeProbability(t);
  }

  /** {@code 1–4}, or {@code 1, 3, 5} when the rounds are not one run. */
  static String span(List<Integer> rounds) {
    boolean run = rounds.get(rounds.size() - 1) - rounds.get(0) == rounds.size() - 1;
    if (run && rounds.size() > 1) {
      return rounds.get(0) + "–" + rounds.get(rounds.size() - 1);
    }
    return String.join(", ", rounds.stream().map(String::valueOf).toList());
  }
}
