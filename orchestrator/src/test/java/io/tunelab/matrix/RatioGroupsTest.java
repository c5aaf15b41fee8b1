package io.tunelab.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.stats.Summary;
import io.tunelab.stats.TwoStage;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Groups of a compared axis and the count their pilots fix. */
class RatioGroupsTest {
  private static final RepeatRule RULE = new RepeatRule(3, 12, 0.02, null, "kernel");
  private static final List<Axis> AXES =
      List.of(
          new Axis("bs", "bs", Axis.Kind.PARAMETER, List.of("64M", "4M"), Map.of(), null),
          new Axis("kernel", "kernel", Axis.Kind.PARAMETER, List.of("B", "A"), Map.of(), null));

  private static Map<Integer, Map<String, String>> cells(String... bsKernel) {
    Map<Integer, Map<String, String>> cells = new LinkedHashMap<>();
    for (int i = 0; i < bsKernel.length; i += 2) {
      Map<String, String> p = new LinkedHashMap<>();
      p.put("bs", bsKernel[i]);
      p.put("kernel", bsKernel[i + 1]);
      cells.put(i / 2 + 1, p);
    }
    return cells;
  }

  @Test
  void cellsSharingTheOtherAxesFormAGroupWhoseBaseIsTheFirstValueAsWritten() {
    RatioGroups g = RatioGroups.of(RULE, AXES, cells("64M", "A", "64M", "B", "4M", "A", "4M", "B"));
    assertEquals(
        List.of(
            new RatioGroups.Group("bs=64M", List.of(2, 1), true),
            new RatioGroups.Group("bs=4M", List.of(4, 3), true)),
        g.groups());
  }

  @Test
  void aGroupWithoutItsBaseHasNothingToCompareAndRunsToMax() {
    RatioGroups g = RatioGroups.of(RULE, AXES, cells("64M", "A", "64M", "B", "4M", "A"));
    assertFalse(g.group(3).compared());
    assertTrue(g.group(1).compared());
    assertEquals(12, g.planned(3, Map.of(3, new double[] {1, 1, 1})));
  }

  @Test
  void theCountWaitsForEveryPilotOfTheGroupAndThenIsTheRatiosTwoStageSize() {
    RatioGroups g = RatioGroups.of(RULE, AXES, cells("64M", "A", "64M", "B"));
    double[] quiet = {100, 100.5, 99.5};
    double[] noisy = {100, 104, 96, 101};
    assertEquals(-1, g.planned(1, Map.of(2, quiet, 1, new double[] {100, 101})));
    int n = g.planned(1, Map.of(2, quiet, 1, noisy));
    assertEquals(
        TwoStage.ratioSize(
            Summary.of(quiet), Summary.of(new double[] {100, 104, 96}), 0.02, 0.95, 12),
        n);
    assertTrue(n > 3 && n <= 12, "n " + n);
    // Values after the pilot change nothing.
    assertEquals(n, g.planned(2, Map.of(2, quiet, 1, new double[] {100, 104, 96, 200, 0})));
  }
}
