package io.tunelab.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.GoldenFiles;
import io.tunelab.view.EffectsJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Effects on a 4 x 3 x 2 grid, 3 repetitions: a strong axis, a weak one, an inert one, noise. */
class EffectsTest {
  private static List<Effects.Observation> grid(long seed) {
    Random noise = new Random(seed);
    List<Effects.Observation> obs = new ArrayList<>();
    for (int a = 0; a < 4; a++) {
      for (int b = 0; b < 3; b++) {
        for (int c = 0; c < 2; c++) {
          for (int rep = 0; rep < 3; rep++) {
            double y = 100 + 30 * a + 3 * b + 2 * noise.nextGaussian();
            obs.add(
                new Effects.Observation(
                    Map.of("strong", "a" + a, "weak", "b" + b, "inert", "c" + c), y));
          }
        }
      }
    }
    return obs;
  }

  @Test
  void theStrongAxisRanksFirstTheInertLastWithItsLevelsIntervalsOverlapping() {
    for (long seed = 1; seed <= 10; seed++) {
      Effects e = Effects.of("mib_per_s", List.of("inert", "weak", "strong"), grid(seed));
      assertEquals(72, e.n());
      assertEquals(
          List.of("strong", "weak", "inert"),
          e.factors().stream().map(Effects.Factor::name).toList(),
          "seed " + seed);
      Effects.Factor strong = e.factors().get(0);
      assertTrue(strong.etaSquared() > 0.9 && strong.p() < 0.001, strong.toString());
      assertEquals(3, strong.dfBetween());
      assertEquals(68, strong.dfWithin());
      Effects.Factor inert = e.factors().get(2);
      Effects.Level c0 = inert.levels().get(0);
      Effects.Level c1 = inert.levels().get(1);
      assertTrue(c0.low() < c1.high() && c1.low() < c0.high(), "inert levels overlap: " + inert);
    }
  }

  @Test
  void anAxisWithOneLevelIsLeftOutAndTheTextRanksTheRest() {
    List<Effects.Observation> obs =
        List.of(
            new Effects.Observation(Map.of("x", "1", "y", "k"), 10),
            new Effects.Observation(Map.of("x", "1", "y", "k"), 12),
            new Effects.Observation(Map.of("x", "2", "y", "k"), 20),
            new Effects.Observation(Map.of("x", "2", "y", "k"), 22));
    Effects e = Effects.of("seconds", List.of("x", "y"), obs);
    assertEquals(List.of("x"), e.factors().stream().map(Effects.Factor::name).toList());
    assertEquals(
        String.join(
            "\n",
            "effects",
            "",
            "factor                       levels        range   eta²          F        p",
            "x                                 2        10.00   0.96       50.0    0.019",
            "",
            "effect (second level - first)                   effect  95 % CI",
            "x: 2 - 1                                         10.00  [3.915, 16.08]",
            "",
            "x=1                                          2        11.00  [-1.706, 23.71]",
            "x=2                                          2        21.00  [8.294, 33.71]",
            ""),
        EffectsText.render(e, "effects", false));
  }

  /** A 3 x 3 x 2 grid where a and b act together (their product), c not at all. */
  private static List<Effects.Observation> interacting(long seed) {
    Random noise = new Random(seed);
    List<Effects.Observation> obs = new ArrayList<>();
    for (int a = 0; a < 3; a++) {
      for (int b = 0; b < 3; b++) {
        for (int c = 0; c < 2; c++) {
          for (int rep = 0; rep < 3; rep++) {
            double y = 100 + 10 * a + 10 * b + 20 * (a - 1) * (b - 1) + noise.nextGaussian();
            obs.add(new Effects.Observation(Map.of("a", "a" + a, "b", "b" + b, "c", "c" + c), y));
          }
        }
      }
    }
    return obs;
  }

  @Test
  void twoAxesThatActTogetherAreTheFirstInteractionAndNoOtherPairIsSignificant() {
    for (long seed = 1; seed <= 10; seed++) {
      Effects e = Effects.of("mib_per_s", List.of("a", "b", "c"), interacting(seed));
      assertEquals(3, e.interactions().size(), e.interactions().toString());
      Effects.Interaction first = e.interactions().get(0);
      assertEquals(List.of("a", "b"), List.of(first.first(), first.second()), "seed " + seed);
      assertEquals(4, first.df());
      assertEquals(54 - 9, first.dfWithin());
      assertTrue(first.p() < 0.001 && first.etaSquared() > 0.2, first.toString());
      for (Effects.Interaction other : e.interactions().subList(1, 3)) {
        assertTrue(other.etaSquared() < 0.01, other.toString());
      }
    }
  }

  @Test
  void theTextAndTheJsonOfAnInteractingGrid() {
    Effects e = Effects.of("mib_per_s", List.of("a", "b", "c"), interacting(3));
    GoldenFiles.assertMatches(
        "search/effects-interacting.txt",
        EffectsText.render(e, "effects", false)
            + "\n"
            + EffectsText.render(e, "effects", true)
            + "\n"
            + EffectsJson.render(e, 4, "grid", "all")
            + "\n");
  }
}
