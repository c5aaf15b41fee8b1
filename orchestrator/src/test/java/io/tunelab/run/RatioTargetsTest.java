package io.tunelab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.matrix.Axis;
import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.MatrixLoader;
import io.tunelab.matrix.RatioGroups;
import io.tunelab.matrix.RepeatRule;
import io.tunelab.plan.BootPlan;
import io.tunelab.plan.Cell;
import io.tunelab.store.Fixtures;
import io.tunelab.store.TrialCommit;
import io.tunelab.store.TrialRef;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.yaml.Position;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A compare rule against a real store: a group stops together once its pilots fixed its count. */
class RatioTargetsTest {
  private static final String SCHED = "client.block.${lun}.scheduler";

  @TempDir Path dir;

  private final RepeatRule rule = new RepeatRule(2, 6, 0.05, null, SCHED);

  private static final List<Axis> AXES =
      List.of(
          new Axis(
              SCHED,
              "scheduler",
              Axis.Kind.KNOB,
              List.of("none", "mq-deadline"),
              Map.of(),
              new Position("m.yaml", 3, 3)),
          new Axis("bs", "bs", Axis.Kind.PARAMETER, List.of("64M", "4M"), Map.of(), null));

  private static final List<Cell> CELLS =
      List.of(
          Fixtures.cell(1, SCHED, "none", "bs", "64M"),
          Fixtures.cell(2, SCHED, "none", "bs", "4M"),
          Fixtures.cell(3, SCHED, "mq-deadline", "bs", "64M"),
          Fixtures.cell(4, SCHED, "mq-deadline", "bs", "4M"));

  private RatioTargets targets(JdbcResultStore store, long id) {
    Map<Integer, Map<String, String>> params = new LinkedHashMap<>();
    CELLS.forEach(c -> params.put(c.ordinal(), c.params()));
    return new RatioTargets(rule, RatioGroups.of(rule, AXES, params), store, null);
  }

  /** The rule in boots: a pilot of 2 boots, at most 3, each boot 2 of the 6 repetitions. */
  private RatioTargets bootTargets(JdbcResultStore store, long id) {
    RepeatRule inBoots = new RepeatRule(2, 3, 0.05, null, SCHED);
    Matrix m =
        MatrixLoader.load(
            "k.yaml",
            "name: k\nroles: {client: cli1}\nmatrix:\n  client.kernel: [6.1.0-1, 6.1.0-2]\n"
                + "repeat: 6\nboots: 3\nworkload: {command: run, on: client}\n");
    Map<Integer, Map<String, String>> params = new LinkedHashMap<>();
    CELLS.forEach(c -> params.put(c.ordinal(), c.params()));
    return new RatioTargets(
        inBoots,
        RatioGroups.of(inBoots, AXES, params),
        store,
        new RatioTargets.BootUnit(BootPlan.of(m), id));
  }

  /** The trial of {@code cell} and {@code rep} among the planned ones. */
  private static TrialRef trial(List<TrialRef> trials, int cell, int rep) {
    return trials.stream()
        .filter(t -> t.cellOrdinal() == cell && t.rep() == rep)
        .findFirst()
        .orElseThrow();
  }

  private static String run(
      JdbcResultStore store, CellTargets targets, TrialRef t, double seconds) {
    var result = Fixtures.gib64(seconds);
    String met = targets.judge(t, result.samples());
    store.startTrial(t.trialId());
    store.commitTrial(TrialCommit.of(t.trialId(), result));
    return met;
  }

  @Test
  void aQuietGroupStopsTogetherAfterItsPilotsAndTheOtherGroupGoesOn() throws Exception {
    try (JdbcResultStore store = JdbcResultStore.open(dir.resolve("t.db"), Fixtures.CLOCK)) {
      long id = store.createExperiment(Fixtures.experiment("r", 6, 0, CELLS), "test");
      List<TrialRef> trials = store.unfinishedTrials(id);
      CellTargets targets = new CellTargets(rule, store, targets(store, id));
      assertEquals(List.of(), targets.settle(trials));
      // In rounds: rep 1 of every cell, then rep 2.
      assertNull(run(store, targets, trial(trials, 1, 1), 16.0));
      assertNull(run(store, targets, trial(trials, 2, 1), 16.0));
      assertNull(run(store, targets, trial(trials, 3, 1), 15.0));
      assertNull(run(store, targets, trial(trials, 4, 1), 15.0));
      assertNull(run(store, targets, trial(trials, 1, 2), 16.1));
      assertNull(run(store, targets, trial(trials, 2, 2), 20.0), "cell 4 has no pilot yet");
      String met = run(store, targets, trial(trials, 3, 2), 15.1);
      assertEquals(
          "cells 1, 3 (group bs=64M) took the 2 measured trials the group's pilots asked for to"
              + " bring the 95% CI of each ratio over "
              + SCHED
              + " within ±5%",
          met);
      assertTrue(targets.skips(trial(trials, 1, 3)));
      assertTrue(targets.skips(trial(trials, 3, 6)));
      assertFalse(targets.skips(trial(trials, 2, 3)));
      assertEquals(8, targets.skipRest(trial(trials, 3, 2), met));
      // The noisy group's pilots ask for more than 2 but at most 6.
      assertNull(run(store, targets, trial(trials, 4, 2), 19.0));
      assertFalse(targets.skips(trial(trials, 4, 3)));
      assertEquals(8, store.unfinishedTrials(id).size());
    }
  }

  @Test
  void withSeveralBootsTheUnitIsABootAndAQuietGroupSkipsItsLastBoot() throws Exception {
    try (JdbcResultStore store = JdbcResultStore.open(dir.resolve("t.db"), Fixtures.CLOCK)) {
      long id = store.createExperiment(Fixtures.experiment("r", 6, 0, CELLS), "test");
      List<TrialRef> trials = store.unfinishedTrials(id);
      CellTargets targets = new CellTargets(rule, store, bootTargets(store, id));
      assertEquals(List.of(), targets.settle(trials));
      String met = null;
      for (int rep = 1; rep <= 4; rep++) {
        for (int cell = 1; cell <= 4; cell++) {
          // bs=64M (cells 1, 3) alike in every boot; bs=4M's boots far apart.
          double seconds = cell % 2 == 1 ? 16.0 : (rep <= 2 ? 10.0 : 20.0);
          String now = run(store, targets, trial(trials, cell, rep), seconds);
          if (now != null) {
            assertEquals(null, met, "one group met the rule: " + now);
            assertEquals(3, cell, "when its second boot ended on both sides: " + now);
            assertEquals(4, rep, now);
            met = now;
            targets.skipRest(trial(trials, cell, rep), now);
          }
        }
      }
      assertTrue(
          met.startsWith("cells 1, 3 (group bs=64M) took the 2 boots the group's pilots asked for"),
          met);
      assertTrue(targets.skips(trial(trials, 1, 5)), "its third boot's trials");
      assertTrue(targets.skips(trial(trials, 3, 6)));
      assertFalse(targets.skips(trial(trials, 2, 5)), "the noisy group boots a third time");
      assertEquals(4, store.unfinishedTrials(id).size());
    }
  }

  @Test
  void aResumedRunSkipsTheRestOfAGroupThatMetTheRuleBeforeTheControllerStopped() throws Exception {
    try (JdbcResultStore store = JdbcResultStore.open(dir.resolve("t.db"), Fixtures.CLOCK)) {
      long id = store.createExperiment(Fixtures.experiment("r", 6, 0, CELLS), "test");
      List<TrialRef> trials = store.unfinishedTrials(id);
      for (int rep = 1; rep <= 2; rep++) {
        for (int cell : List.of(1, 3)) {
          store.startTrial(trial(trials, cell, rep).trialId());
          store.commitTrial(TrialCommit.of(trial(trials, cell, rep).trialId(), Fixtures.gib64(16)));
        }
      }
      CellTargets resumed = new CellTargets(rule, store, targets(store, id));
      List<String> told = resumed.settle(store.unfinishedTrials(id));
      assertEquals(1, told.size(), told.toString());
      assertTrue(told.get(0).startsWith("cells 1, 3 (group bs=64M) took the 2"), told.get(0));
      assertTrue(told.get(0).endsWith("; 8 trial(s) skipped"), told.get(0));
      assertEquals(12, store.unfinishedTrials(id).size());
    }
  }
}
