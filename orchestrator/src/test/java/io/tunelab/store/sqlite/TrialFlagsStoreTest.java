package io.tunelab.store.sqlite;

import static io.tunelab.store.Fixtures.cell;
import static io.tunelab.store.Fixtures.experiment;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.matrix.OnFlag;
import io.tunelab.plan.ExperimentPlan;
import io.tunelab.report.Report;
import io.tunelab.store.Fixtures;
import io.tunelab.store.ReportData;
import io.tunelab.store.TrialCommit;
import io.tunelab.store.TrialFlag;
import io.tunelab.store.TrialRef;
import io.tunelab.store.sql.BundledSql;
import io.tunelab.store.sql.Migrations;
import io.tunelab.store.sql.SqlDialect;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Health flags go with a trial's commit, go when it runs again, and leave the statistics only when
 * the experiment's {@code on_flag} is {@code exclude}; the report says so.
 */
class TrialFlagsStoreTest {
  @TempDir Path dir;

  private static final List<TrialFlag> FLAGS =
      List.of(
          new TrialFlag("cli1", TrialFlag.DMESG, "EXT4-fs warning"),
          new TrialFlag("srv1", TrialFlag.KNOB_DRIFT, "read_ahead_kb applied 256, read 128"));

  /** Three trials of 10, 20 and 30 s; the third flagged. */
  private ReportData run(OnFlag onFlag) {
    ExperimentPlan p = experiment("flags", 3, 0, List.of(cell(1, "bs", "1M")));
    ExperimentPlan plan =
        new ExperimentPlan(
            p.name(),
            p.description(),
            p.matrixYaml(),
            p.matrixPath(),
            p.order(),
            p.seed(),
            p.repeat(),
            p.warmup(),
            p.cells(),
            p.trials(),
            p.workload(),
            p.overrides(),
            p.repeatRule(),
            onFlag);
    try (JdbcResultStore store =
        JdbcResultStore.open(dir.resolve(onFlag.text() + ".db"), Fixtures.CLOCK)) {
      long id = store.createExperiment(plan, Fixtures.TOOL_VERSION);
      store.recordHost(id, "client", "cli1", java.util.Map.of());
      store.recordHost(id, "server", "srv1", java.util.Map.of());
      List<TrialRef> trials = store.unfinishedTrials(id);
      for (int i = 0; i < 3; i++) {
        var result = Fixtures.timed(10 * (i + 1));
        store.commitTrial(
            TrialCommit.of(trials.get(i).trialId(), i == 2 ? result.withFlags(FLAGS) : result));
      }
      return store.report(id);
    }
  }

  private List<List<Object>> rows(OnFlag onFlag, String sql) throws SQLException {
    return Fixtures.rows(dir.resolve(onFlag.text() + ".db"), sql);
  }

  @Test
  void keptFlaggedTrialsCountAndTheReportWarns() throws Exception {
    ReportData data = run(OnFlag.KEEP);

    assertEquals(
        List.of(
            List.of(3L, "cli1", "dmesg", "EXT4-fs warning"),
            List.of(3L, "srv1", "knob_drift", "read_ahead_kb applied 256, read 128")),
        rows(
            OnFlag.KEEP,
            "SELECT t.seq, f.host, f.flag, f.detail FROM trial_flags f JOIN trials t ON t.id = f.trial_id ORDER BY f.host"));
    assertEquals(
        List.of(List.of(3L, 20.0)),
        rows(
            OnFlag.KEEP,
            "SELECT n, mean FROM cell_stats WHERE job = 'all' AND metric = 'seconds'"));
    String text =
        String.join("\n", Report.build(data, Report.Options.CLASSIC).warnings().lines(""));
    assertTrue(
        text.contains(
            "1 trial(s) flagged: dmesg 1 (client), knob_drift 1 (server);"
                + " on_flag keep: they are in the statistics"),
        text);
  }

  @Test
  void excludedFlaggedTrialsLeaveTheStatisticsButStayStored() throws Exception {
    ReportData data = run(OnFlag.EXCLUDE);

    assertEquals(
        List.of(List.of(2L, 15.0)),
        rows(
            OnFlag.EXCLUDE,
            "SELECT n, mean FROM cell_stats WHERE job = 'all' AND metric = 'seconds'"));
    assertEquals(List.of(List.of(2L)), rows(OnFlag.EXCLUDE, "SELECT count(*) FROM trial_flags"));
    ReportData.Trial third = data.cells().get(0).trials().get(2);
    assertTrue(third.excluded());
    assertFalse(third.counted());
    assertEquals(2, data.cells().get(0).values("seconds").length);
    String text =
        String.join("\n", Report.build(data, Report.Options.CLASSIC).warnings().lines(""));
    assertTrue(text.contains("on_flag exclude: they are left out of the statistics"), text);
  }

  @Test
  void aDatabaseOfVersion11KeepsItsFlagsAndTakesTheCacheFlag() throws Exception {
    Path db = dir.resolve("v11.db");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement st = c.createStatement()) {
      st.executeUpdate(
          "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
              + " applied_at TEXT NOT NULL)");
      for (Migrations.Migration m : Migrations.bundled()) {
        if (m.version() <= 11) {
          st.executeUpdate(SqlDialect.SQLITE.schema(BundledSql.read(m.file())));
          st.executeUpdate(
              "INSERT INTO schema_version VALUES ("
                  + m.version()
                  + ", '"
                  + m.file()
                  + "', '2026-01-01T00:00:00.000Z')");
        }
      }
      st.executeUpdate(
          "INSERT INTO experiments (id, name, status, matrix_yaml, order_mode, seed, repeat,"
              + " warmup, created_at) VALUES (1, 'old', 'interrupted', 'name: old', 'sequential',"
              + " 1, 2, 0, '2026-01-01T00:00:00.000Z')");
      st.executeUpdate("INSERT INTO cells VALUES (1, 1, 1, 'bs=1M')");
      st.executeUpdate(
          "INSERT INTO trials (id, experiment_id, cell_id, rep, seq, status) VALUES"
              + " (1, 1, 1, 1, 1, 'ok'), (2, 1, 1, 2, 2, 'pending')");
      st.executeUpdate(
          "INSERT INTO trial_flags (trial_id, host, flag, detail, pos)"
              + " VALUES (1, 'cli1', 'swap', 'pswpin +1, pswpout +0', 0)");
    }

    try (JdbcResultStore store = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      TrialRef pending = store.unfinishedTrials(1).get(0);
      store.startTrial(pending.trialId());
      store.commitTrial(
          TrialCommit.of(
              pending.trialId(),
              Fixtures.timed(2)
                  .withFlags(List.of(new TrialFlag("cli1", TrialFlag.CACHE, "read: …")))));
    }

    assertEquals(
        List.of(List.of(1L, "swap"), List.of(2L, "cache")),
        Fixtures.rows(db, "SELECT trial_id, flag FROM trial_flags ORDER BY trial_id"));
  }
}
