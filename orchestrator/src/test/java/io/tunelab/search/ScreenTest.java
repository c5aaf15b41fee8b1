package io.tunelab.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Screens: which design fits the budget, its balance, its rounds and its winner. */
class ScreenTest {
  /** Every combination of the axes' indices, the first axis slowest, ordinals from 1. */
  private static Space grid(Integer... sizes) {
    List<List<Integer>> indices = new ArrayList<>();
    indices.add(new ArrayList<>());
    for (int size : sizes) {
      List<List<Integer>> next = new ArrayList<>();
      for (List<Integer> prefix : indices) {
        for (int v = 0; v < size; v++) {
          List<Integer> at = new ArrayList<>(prefix);
          at.add(v);
          next.add(at);
        }
      }
      indices = next;
    }
    return new Space(List.of(sizes), indices);
  }

  /** Each design cell's levels: true for an axis at its last value. */
  private static List<boolean[]> levels(Space space, Screen screen) {
    List<boolean[]> rows = new ArrayList<>();
    for (int cell : screen.design()) {
      List<Integer> at = space.indices().get(cell - 1);
      boolean[] row = new boolean[at.size()];
      for (int a = 0; a < at.size(); a++) {
        assertTrue(at.get(a) == 0 || at.get(a) == space.sizes().get(a) - 1, at.toString());
        row[a] = at.get(a) > 0;
      }
      rows.add(row);
    }
    return rows;
  }

  /** Every pair of axes sees each of its four level combinations equally often. */
  private static void assertOrthogonal(List<boolean[]> rows, int axes) {
    for (int a = 0; a < axes; a++) {
      for (int b = a + 1; b < axes; b++) {
        Map<String, Integer> counts = new HashMap<>();
        for (boolean[] r : rows) {
          counts.merge(r[a] + "/" + r[b], 1, Integer::sum);
        }
        assertEquals(4, counts.size(), "axes " + a + ", " + b + ": " + counts);
        assertEquals(1, counts.values().stream().distinct().count(), counts.toString());
      }
    }
  }

  @Test
  void fourAxesInSixtyFourTrialsAreAFullFactorialReplicatedFourTimes() {
    Space space = grid(6, 5, 2, 4);
    Screen screen = new Screen(space, 5, true, 64);

    assertEquals("full factorial 2^4: 16 cells x 4 replicates", screen.description());
    assertOrthogonal(levels(space, screen), 4);
  }

  @Test
  void sevenAxesInThirtyTrialsArePlackettBurmanEightFoldedOver() {
    Space space = grid(2, 2, 2, 2, 2, 2, 2);
    Screen screen = new Screen(space, 5, true, 30);

    assertEquals(
        "Plackett-Burman 8 folded over (resolution IV): 16 cells x 1 replicates",
        screen.description());
    assertOrthogonal(levels(space, screen), 7);
  }

  @Test
  void elevenAxesInTwentyTrialsArePlackettBurmanTwelveAlone() {
    Space space = grid(2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2);
    Screen screen = new Screen(space, 5, true, 20);

    assertEquals(
        "Plackett-Burman 12 (resolution III): 12 cells x 1 replicates", screen.description());
    assertOrthogonal(levels(space, screen), 11);
  }

  @Test
  void aBudgetBelowTheSmallestDesignIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Screen(grid(2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2), 5, true, 10));
    assertTrue(e.getMessage().contains("needs 12 trials a replicate"), e.getMessage());
  }

  @Test
  void eachReplicateRunsTheDesignInItsOwnSeededOrderThenTheBestCellWins() {
    Space space = grid(3, 3);
    Screen screen = new Screen(space, 9, false, 8);
    List<Rounds.Round> measured = new ArrayList<>();
    List<List<Integer>> orders = new ArrayList<>();
    for (int round = 1; round <= 2; round++) {
      Rounds.Decision d = screen.next(measured);
      assertEquals(screen.next(measured), d, "the same rounds, the same answer");
      assertEquals(
          screen.design().stream().sorted().toList(), d.cells().stream().sorted().toList());
      orders.add(d.cells());
      Map<Integer, Double> values = new HashMap<>();
      for (int cell : d.cells()) {
        values.put(cell, cell == 9 ? 1.0 : 10.0 + cell);
      }
      measured.add(new Rounds.Round(round, values));
    }
    Rounds.Decision end = screen.next(measured);

    assertEquals(List.of(), end.cells(), "2 replicates of 4 cells spend the 8 trials");
    assertEquals(9, end.winner(), "minimize: the cell of the lowest mean");
    assertEquals(List.of(1, 3, 7, 9), screen.design().stream().sorted().toList());
  }

  @Test
  void levelsOfItsOwnReplaceTheFirstAndLastValue() {
    Space space = grid(3, 4, 2);
    // Axis 0 at its second and third value, axis 1 at its third and first (high below low).
    List<List<Integer>> levels = List.of(List.of(1, 2), List.of(2, 0), List.of(0, 1));
    Screen screen = new Screen(space, 5, true, 32, levels);

    assertEquals(8, screen.design().size(), screen.description());
    Map<Integer, Set<Integer>> seen = new HashMap<>();
    for (int cell : screen.design()) {
      List<Integer> at = space.indices().get(cell - 1);
      for (int a = 0; a < at.size(); a++) {
        seen.computeIfAbsent(a, k -> new TreeSet<>()).add(at.get(a));
      }
    }
    assertEquals(Map.of(0, Set.of(1, 2), 1, Set.of(0, 2), 2, Set.of(0, 1)), seen);
    assertEquals(levels, screen.levels());
  }
}
