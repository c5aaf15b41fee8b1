package io.tunelab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CellVisitsTest {
  /** The steps a run of trials of these cells makes, as "setup N", "teardown N", "trial N". */
  private static List<String> walk(CellVisits visits, int... cells) {
    List<String> steps = new ArrayList<>();
    for (int cell : cells) {
      CellVisits.Due due = visits.before(cell);
      if (due.teardown() != 0) {
        steps.add("teardown " + due.teardown());
      }
      if (due.setup() != 0) {
        steps.add("setup " + due.setup());
      }
      steps.add(due.failure() == null ? "trial " + cell : "failed " + cell + ": " + due.failure());
    }
    int last = visits.end();
    if (last != 0) {
      steps.add("teardown " + last);
    }
    return steps;
  }

  @Test
  void sequentialTrialsSetEachCellUpOnce() {
    assertEquals(
        List.of(
            "setup 1",
            "trial 1",
            "trial 1",
            "teardown 1",
            "setup 2",
            "trial 2",
            "trial 2",
            "teardown 2"),
        walk(new CellVisits(), 1, 1, 2, 2));
  }

  @Test
  void shuffledTrialsSetACellUpAgainAtEveryChange() {
    assertEquals(
        List.of(
            "setup 2",
            "trial 2",
            "teardown 2",
            "setup 1",
            "trial 1",
            "trial 1",
            "teardown 1",
            "setup 2",
            "trial 2",
            "teardown 2"),
        walk(new CellVisits(), 2, 1, 1, 2));
  }

  @Test
  void aCellThatCouldNotBeSetUpFailsItsTrialsWithoutTouchingTheOpenCell() {
    CellVisits visits = new CellVisits();
    assertEquals(new CellVisits.Due(0, 1, null), visits.before(1));
    assertEquals(1, visits.failed("mount: busy"));
    assertEquals(
        List.of(
            "failed 1: mount: busy",
            "setup 2",
            "trial 2",
            "failed 1: mount: busy",
            "trial 2",
            "teardown 2"),
        walk(visits, 1, 2, 1, 2));
  }

  @Test
  void nothingIsOpenBeforeTheFirstTrialOrAfterTheEnd() {
    CellVisits visits = new CellVisits();
    assertEquals(0, visits.end());
    visits.before(3);
    assertEquals(3, visits.end());
    assertEquals(0, visits.end());
  }
}
