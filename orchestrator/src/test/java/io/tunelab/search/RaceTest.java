package io.tunelab.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The race on synthetic surfaces of 6 x 5 x 2 x 4 = 240 cells: two strong factors with their best
 * values inside the space, a weak one and an inert one, 2 % noise, 140 trials.
 */
class RaceTest {
  private static final List<Integer> SIZES = List.of(6, 5, 2, 4);

  /** Every combination, the first axis slowest, as the plan expands a matrix. */
  private static Space space() {
    List<List<Integer>> indices = new ArrayList<>();
    for (int a = 0; a < 6; a++) {
      for (int b = 0; b < 5; b++) {
        for (int c = 0; c < 2; c++) {
          for (int d = 0; d < 4; d++) {
            indices.add(List.of(a, b, c, d));
          }
        }
      }
    }
    return new Space(SIZES, indices);
  }

  /** A bell on each strong axis around its best index, 3 % for the weak axis at 0, noise. */
  private static double surface(List<Integer> at, int bestA, int bestB, Random noise) {
    double a = at.get(0) - bestA;
    double b = at.get(1) - bestB;
    double f = 1000 * Math.exp(-a * a / 2) * Math.exp(-b * b / 1.28) * (at.get(2) == 0 ? 1.03 : 1);
    return f * (1 + 0.02 * noise.nextGaussian());
  }

  /** Runs the race to its end or its budget; returns the rounds and the last decision. */
  private static Rounds.Decision race(
      Race race,
      Space space,
      int budget,
      int bestA,
      int bestB,
      long noiseSeed,
      List<Rounds.Round> rounds) {
    Random noise = new Random(noiseSeed);
    int spent = 0;
    Rounds.Decision d = race.next(rounds);
    while (!d.cells().isEmpty() && spent < budget) {
      Map<Integer, Double> values = new LinkedHashMap<>();
      for (int cell : d.cells()) {
        if (spent++ < budget) {
          values.put(cell, surface(space.indices().get(cell - 1), bestA, bestB, noise));
        }
      }
      rounds.add(new Rounds.Round(rounds.size() + 1, values));
      d = race.next(rounds);
    }
    return d;
  }

  @Test
  void findsTheStrongFactorsBestValuesOnSurfacesWithTheirOptimumInside() {
    Space space = space();
    int[][] optima = {{3, 2}, {2, 1}, {4, 3}, {1, 2}};
    for (int[] best : optima) {
      for (long seed = 1; seed <= 5; seed++) {
        Race race = new Race(space, seed, true, 140);
        Rounds.Decision d = race(race, space, 140, best[0], best[1], seed * 7, new ArrayList<>());
        List<Integer> won = space.indices().get(d.winner() - 1);
        assertEquals(
            List.of(best[0], best[1]),
            won.subList(0, 2),
            "optimum " + best[0] + "," + best[1] + ", seed " + seed + ": winner " + won);
      }
    }
  }

  @Test
  void theSameRoundsGiveTheSameDecisionSoAResumedRaceGoesOnAsIfUninterrupted() {
    Space space = space();
    List<Rounds.Round> rounds = new ArrayList<>();
    Rounds.Decision end = race(new Race(space, 3, true, 140), space, 140, 3, 2, 11, rounds);
    for (int cut = 0; cut <= rounds.size(); cut++) {
      Rounds.Decision a = new Race(space, 3, true, 140).next(rounds.subList(0, cut));
      Rounds.Decision b =
          new Race(space, 3, true, 140).next(new ArrayList<>(rounds.subList(0, cut)));
      assertEquals(a, b, "after " + cut + " rounds");
      if (cut < rounds.size()) {
        assertTrue(
            a.cells().containsAll(rounds.get(cut).values().keySet()),
            "round " + (cut + 1) + " ran what the decision before it said");
      }
    }
    assertTrue(end.winner() > 0);
  }

  @Test
  void theFirstFieldIsSpreadOverEveryAxisAndDependsOnTheSeed() {
    Space space = space();
    Race race = new Race(space, 1, true, 140);
    List<Integer> first = race.first();
    assertEquals(23, first.size(), "a sixth of 140");
    for (int axis = 0; axis < 4; axis++) {
      int a = axis;
      long values = first.stream().map(c -> space.indices().get(c - 1).get(a)).distinct().count();
      assertEquals(SIZES.get(axis).longValue(), values, "every value of axis " + axis);
    }
    assertTrue(!first.equals(new Race(space, 2, true, 140).first()), "another seed, another field");
    assertEquals(first, new Race(space, 1, true, 140).first());
  }

  @Test
  void aCandidateIsEliminatedWithTheRoundsAndPOfItsTest() {
    Space space = new Space(List.of(4), List.of(List.of(0), List.of(1), List.of(2), List.of(3)));
    Race race = new Race(space, 1, true, 24);
    List<Rounds.Round> rounds = new ArrayList<>();
    for (int r = 1; r <= 3; r++) {
      rounds.add(
          new Rounds.Round(
              r,
              Map.of(
                  1,
                  100.0 + r,
                  2,
                  50.0 + r % 2,
                  3,
                  r == 1 ? 101.5 : r == 2 ? 101.0 : 102.5,
                  4,
                  Double.NaN)));
    }
    Rounds.Decision d = race.next(rounds);
    assertEquals(List.of(1, 3), d.cells().stream().sorted().toList());
    assertEquals(1, d.winner());
    assertTrue(
        d.states()
            .contains(
                new Rounds.State(2, "eliminated", "worse than cell 1 over rounds 1–3, p < 0.001")),
        d.states().toString());
    assertTrue(
        d.states()
            .contains(new Rounds.State(4, "eliminated", "failed in every round it ran (1–3)")),
        d.states().toString());
  }
}
