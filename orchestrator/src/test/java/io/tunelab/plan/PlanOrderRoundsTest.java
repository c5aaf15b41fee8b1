package io.tunelab.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.matrix.Matrix.Order;
import io.tunelab.testing.GoldenFiles;
import io.tunelab.testing.RepoFiles;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** {@code order: rounds}: every cell once per round, each round in a fresh seeded order. */
class PlanOrderRoundsTest {
  /** The rounds of a plan, each the cell ordinals in run order. */
  private static List<List<Integer>> rounds(List<Trial> trials, int cells) {
    List<List<Integer>> rounds = new ArrayList<>();
    for (int i = 0; i < trials.size(); i += cells) {
      rounds.add(trials.subList(i, i + cells).stream().map(Trial::cellOrdinal).toList());
    }
    return rounds;
  }

  private static String render(List<List<Integer>> rounds) {
    List<String> parts = new ArrayList<>();
    for (int r = 0; r < rounds.size(); r++) {
      StringBuilder line = new StringBuilder("round " + (r + 1) + ":");
      rounds.get(r).forEach(c -> line.append(' ').append(c));
      parts.add(line.toString());
    }
    return String.join("    ", parts) + "\n";
  }

  @Test
  void fiveCellsInFourRoundsEachRoundHoldingEveryCellOnce() {
    List<Trial> trials = PlanBuilder.build(5, 4, 0, Order.ROUNDS, 42);
    List<List<Integer>> rounds = rounds(trials, 5);
    assertEquals(4, rounds.size());
    for (int r = 0; r < rounds.size(); r++) {
      assertEquals(Set.of(1, 2, 3, 4, 5), new TreeSet<>(rounds.get(r)), "round " + (r + 1));
      for (int k = 0; k < 5; k++) {
        assertEquals(r + 1, trials.get(r * 5 + k).rep(), "round k is every cell's rep k");
      }
    }
    assertTrue(new HashSet<>(rounds).size() >= 3, "at least three orders: " + rounds);
    GoldenFiles.assertMatches("plan/rounds-5x4-seed42.txt", render(rounds));
  }

  @Test
  void theMatrixGuideShowsTheseRounds() {
    String guide = RepoFiles.read(RepoFiles.repoRoot().resolve("docs/matrix.md"));
    String golden = RepoFiles.read(RepoFiles.testResources("plan/rounds-5x4-seed42.txt"));
    assertTrue(guide.contains(golden), "docs/matrix.md shows plan/rounds-5x4-seed42.txt");
  }

  @Test
  void warmUpRoundsComeFirstAndTheSeedReplaysTheOrder() {
    List<Trial> trials = PlanBuilder.build(3, 2, 1, Order.ROUNDS, 7);
    for (int i = 0; i < 3; i++) {
      assertTrue(trials.get(i).warmup());
    }
    for (int i = 3; i < 9; i++) {
      assertTrue(!trials.get(i).warmup());
    }
    assertEquals(trials, PlanBuilder.build(3, 2, 1, Order.ROUNDS, 7));
  }

  @Test
  void withKernelsTheRoundsOfAReleaseStayWithinItsBoot() {
    // Cells 1 and 3 on release A, 2 and 4 on B; two boots each, two rounds per boot.
    int[] groups = {0, 1, 0, 1};
    List<Trial> trials = PlanBuilder.build(groups, 2, 2, 4, 4, 0, Order.ROUNDS, 9);
    List<Integer> cells = trials.stream().map(Trial::cellOrdinal).toList();
    for (int i = 0; i < 8; i++) {
      assertEquals(0, groups[cells.get(i) - 1], "release A first: " + cells);
    }
    for (int i = 0; i < 8; i += 2) {
      assertEquals(Set.of(1, 3), Set.copyOf(cells.subList(i, i + 2)), "a round: " + cells);
    }
    for (int i = 8; i < 16; i += 2) {
      assertEquals(Set.of(2, 4), Set.copyOf(cells.subList(i, i + 2)), "a round: " + cells);
    }
  }
}
