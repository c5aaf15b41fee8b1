package io.tunelab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.matrix.RepeatRule;
import io.tunelab.plan.Cell;
import io.tunelab.store.Fixtures;
import io.tunelab.store.TrialCommit;
import io.tunelab.store.TrialRef;
import io.tunelab.store.sqlite.JdbcResultStore;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The adaptive repeat rule against a real store: judged per trial, and settled on resume. */
class CellTargetsTest {
  @TempDir Path dir;

  private final RepeatRule rule = new RepeatRule(3, 6, 0.02, null);

  @Test
  void aCellIsJudgedWithTheTrialJustRunAndItsRestSkippedOnceCommitted() throws Exception {
    try (JdbcResultStore store = JdbcResultStore.open(dir.resolve("t.db"), Fixtures.CLOCK)) {
      long id = twoCells(store);
      List<TrialRef> trials = store.unfinishedTrials(id);
      CellTargets targets = new CellTargets(rule, store);
      assertEquals(List.of(), targets.settle(trials));
      String met = null;
      for (TrialRef t : trials.subList(0, 3)) {
        var result = Fixtures.gib64(16.0);
        met = targets.judge(t, result.samples());
        store.startTrial(t.trialId());
        store.commitTrial(TrialCommit.of(t.trialId(), result));
        if (t.rep() < 3) {
          assertNull(met, "rep " + t.rep());
        }
      }
      assertEquals("met its target after 3 measured trials: ±0.00% of the mean, target 2%", met);
      assertTrue(targets.skips(trials.get(3)));
      assertFalse(targets.skips(trials.get(6)), "the other cell goes on");
      assertEquals(3, targets.skipRest(trials.get(2), met));
      assertEquals(6, store.unfinishedTrials(id).size());
    }
  }

  @Test
  void aResumedRunSkipsTheRestOfACellThatMetItsTargetBeforeTheControllerStopped() throws Exception {
    try (JdbcResultStore store = JdbcResultStore.open(dir.resolve("t.db"), Fixtures.CLOCK)) {
      long id = twoCells(store);
      List<TrialRef> trials = store.unfinishedTrials(id);
      double[] quiet = {16.0, 16.1, 16.0};
      double[] noisy = {16, 20, 16};
      for (int i = 0; i < 3; i++) {
        commit(store, trials.get(i), quiet[i]);
        commit(store, trials.get(6 + i), noisy[i]);
      }
      // The controller stopped here: the quiet cell's rest was never marked.
      List<TrialRef> left = store.unfinishedTrials(id);
      CellTargets resumed = new CellTargets(rule, store);
      List<String> told = resumed.settle(left);
      assertEquals(1, told.size(), told.toString());
      assertTrue(
          told.get(0).startsWith("cell 1 met its target after 3 measured trials: ±"), told.get(0));
      assertTrue(told.get(0).endsWith("; 3 trial(s) skipped"), told.get(0));
      assertTrue(resumed.skips(left.get(0)));
      assertEquals(3, store.unfinishedTrials(id).size(), "the noisy cell still has 3 to run");
    }
  }

  /** Two cells of up to 6 trials each, planned. */
  private static long twoCells(JdbcResultStore store) {
    List<Cell> cells = List.of(Fixtures.cell(1, "bs", "64M"), Fixtures.cell(2, "bs", "32M"));
    return store.createExperiment(
        Fixtures.experiment("targets", 6, 0, cells), Fixtures.TOOL_VERSION);
  }

  private static void commit(JdbcResultStore store, TrialRef t, double seconds) {
    store.startTrial(t.trialId());
    store.commitTrial(TrialCommit.of(t.trialId(), Fixtures.gib64(seconds)));
  }
}
