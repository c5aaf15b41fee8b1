package io.tunelab.store.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tunelab.matrix.Matrix;
import io.tunelab.plan.Cell;
import io.tunelab.plan.ExperimentPlan;
import io.tunelab.plan.PlanBuilder;
import io.tunelab.plan.Trial;
import io.tunelab.store.Fixtures;
import io.tunelab.store.ResultTable;
import io.tunelab.store.StoredPlan;
import io.tunelab.store.TrialCommit;
import io.tunelab.store.TrialRef;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A plan larger than one chunk of rows and one page of trials is stored and read back whole. */
class SqlitePlanScaleTest {
  @TempDir Path dir;

  @Test
  void aShuffledPlanOfManyChunksReadsBackInSeqOrder() {
    int cellCount = 21_000;
    List<Cell> cells = new ArrayList<>();
    for (int o = 1; o <= cellCount; o++) {
      Map<String, String> params = new LinkedHashMap<>();
      params.put("a", "v" + o % 7);
      params.put("b \"quoted\"", "é\t" + o);
      // Knob shapes change from cell to cell, as with a cases axis.
      Map<String, String> knobs =
          o % 2 == 0 ? Map.of("server.vm.swappiness", "" + o % 100) : Map.of();
      cells.add(new Cell(o, "a=v" + o % 7 + "/n=" + o, params, knobs, Map.of()));
    }
    List<Trial> trials = PlanBuilder.build(cellCount, 2, 1, Matrix.Order.SHUFFLE, 7);
    ExperimentPlan plan =
        ExperimentPlan.builder("scale")
            .description(null)
            .matrix("name: scale\n", null)
            .order(Matrix.Order.SHUFFLE, 7)
            .repeat(2, 1)
            .cells(cells)
            .trials(trials)
            .build();
    try (JdbcResultStore store = JdbcResultStore.open(dir.resolve("t.db"))) {
      long id = store.createExperiment(plan, "test");
      List<TrialRef> refs = store.unfinishedTrials(id);
      assertEquals(trials.size(), refs.size());
      for (int i = 0; i < refs.size(); i++) {
        Trial t = trials.get(i);
        TrialRef r = refs.get(i);
        assertEquals(t.seq(), r.seq());
        assertEquals(t.cellOrdinal(), r.cellOrdinal());
        assertEquals(t.rep(), r.rep());
        assertEquals(t.warmup(), r.warmup());
      }
      store.commitTrial(TrialCommit.of(refs.get(0).trialId(), Fixtures.timed(1)));
      assertEquals(trials.size() - 1, store.unfinishedTrials(id).size());
      assertEquals(
          List.of(List.of("21000", "b \"quoted\"", "é\t21000", "2")),
          rows(
              store.query(
                  "SELECT p.cell_id - (SELECT min(id) FROM cells) + 1, p.name, p.value, p.pos"
                      + " FROM cell_params p ORDER BY p.rowid DESC LIMIT 1")));
      assertEquals(
          List.of(List.of("10500", "" + 21_000 % 100)),
          rows(
              store.query(
                  "SELECT count(*), (SELECT value FROM cell_knobs ORDER BY rowid DESC LIMIT 1)"
                      + " FROM cell_knobs")));
    }
  }

  @Test
  void plansStoredWithTheirKeysCheckedAtOnceLeaveTheKeysAndTheIndexByCellWhole() {
    try (JdbcResultStore store = JdbcResultStore.open(dir.resolve("k.db"))) {
      // The first plan and a larger one rebuild the index by cell; a smaller one fills it.
      for (int cellCount : new int[] {300, 20, 900}) {
        List<Cell> cells = new ArrayList<>();
        for (int o = 1; o <= cellCount; o++) {
          cells.add(Fixtures.cell(o, Map.of("server.vm.swappiness", "" + o % 100), "n", "" + o));
        }
        List<Trial> trials = PlanBuilder.build(cellCount, 3, 0, Matrix.Order.SHUFFLE, 7);
        StoredPlan stored =
            store.storePlan(
                ExperimentPlan.builder("keys")
                    .description(null)
                    .matrix("name: keys\n", null)
                    .order(Matrix.Order.SHUFFLE, 7)
                    .repeat(3, 0)
                    .cells(cells)
                    .trials(trials)
                    .build(),
                "test");
        // What the writer hands back is what reading them gives.
        assertEquals(trials.size(), stored.trials().size());
        assertEquals(store.unfinishedTrials(stored.experimentId()), stored.trials());
      }
      assertEquals(List.of(List.of("1")), rows(store.query("PRAGMA foreign_keys")));
      assertEquals(List.of(), rows(store.query("PRAGMA foreign_key_check")));
      assertEquals(List.of(List.of("ok")), rows(store.query("PRAGMA integrity_check")));
      assertEquals(
          List.of(List.of("CREATE INDEX trials_by_cell ON trials (cell_id, rep)")),
          rows(store.query("SELECT sql FROM sqlite_master WHERE name = 'trials_by_cell'")));
      assertEquals(
          List.of(List.of("3")),
          rows(
              store.query(
                  "SELECT count(*) FROM trials INDEXED BY trials_by_cell"
                      + " WHERE cell_id = (SELECT max(id) FROM cells)")));
    }
  }

  private static List<List<String>> rows(ResultTable table) {
    List<List<String>> rows = new ArrayList<>();
    for (List<Object> row : table.rows()) {
      List<String> text = new ArrayList<>();
      row.forEach(v -> text.add(String.valueOf(v)));
      rows.add(text);
    }
    return rows;
  }
}
