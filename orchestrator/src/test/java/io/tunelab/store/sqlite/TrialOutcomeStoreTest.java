package io.tunelab.store.sqlite;

import static io.tunelab.store.Fixtures.cell;
import static io.tunelab.store.Fixtures.experiment;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.store.Fixtures;
import io.tunelab.store.MonitorSample;
import io.tunelab.store.ProcessRecord;
import io.tunelab.store.ReportData;
import io.tunelab.store.ResultReader;
import io.tunelab.store.TrialCommit;
import io.tunelab.store.TrialOutput;
import io.tunelab.store.TrialRef;
import io.tunelab.store.TrialResult;
import io.tunelab.store.TrialStatus;
import io.tunelab.store.sql.BundledSql;
import io.tunelab.store.sql.Migrations;
import io.tunelab.store.sql.SqlDialect;
import io.tunelab.workload.Sample;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a trial leaves besides samples and settings (schema version 2): every monitor row, a record
 * per workload process, and kept tool output, committed with the trial; and a database of version 1
 * upgraded in place.
 */
class TrialOutcomeStoreTest {
  private static final String FIO_JSON =
      "{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [ { \"jobname\" : \"reader\" } ]\n}\n";

  @TempDir Path dir;

  private Path db() {
    return dir.resolve("tunelab.db");
  }

  /** A reader and a writer with a vmstat and an iostat row each, and the reader's fio JSON. */
  private static TrialResult twoJobs(double seconds) {
    List<Sample> samples =
        List.of(
            new Sample("writer.0", "seconds", seconds, "s"),
            new Sample("writer", "seconds", seconds, "s"),
            new Sample("reader.0", "seconds", seconds / 2, "s"),
            new Sample("reader", "seconds", seconds / 2, "s"),
            new Sample("all", "seconds", seconds, "s"),
            new Sample("vmstat@client", "wa", 31.5, "%"),
            new Sample("iostat@client:sdb", "util_pct", 99.2, "%"));
    List<MonitorSample> rows =
        List.of(
            new MonitorSample("cli1", "vmstat", "", 1, "wa", 30),
            new MonitorSample("cli1", "vmstat", "", 2, "wa", 33),
            new MonitorSample("cli1", "iostat", "sdb", 1, "util_pct", 99.2));
    List<ProcessRecord> processes =
        List.of(
            new ProcessRecord(
                "writer", "writer.0", "client", "cli1", "idle", 10, "0-1", 0, seconds, false),
            new ProcessRecord(
                "reader",
                "reader.0",
                "client",
                "cli1",
                "realtime: prio 0",
                null,
                null,
                0,
                Double.NaN,
                true));
    return new TrialResult(
        TrialStatus.OK,
        null,
        seconds,
        samples,
        List.of(),
        rows,
        processes,
        List.of(new TrialOutput("reader.0", "fio-json", FIO_JSON)));
  }

  @Test
  void aTrialCommitsItsMonitorRowsProcessesAndOutputWithItsSamples() throws Exception {
    long trial;
    try (JdbcResultStore store = JdbcResultStore.open(db(), Fixtures.CLOCK)) {
      long id =
          store.createExperiment(
              experiment("rw", 1, 0, List.of(cell(1, "bs", "1M"))), Fixtures.TOOL_VERSION);
      trial = store.unfinishedTrials(id).get(0).trialId();
      store.startTrial(trial);
      store.commitTrial(TrialCommit.of(trial, twoJobs(8)));
    }

    assertEquals(
        List.of(
            List.of(trial, "cli1", "iostat", "sdb", 1.0, "util_pct", 99.2),
            List.of(trial, "cli1", "vmstat", "", 1.0, "wa", 30.0),
            List.of(trial, "cli1", "vmstat", "", 2.0, "wa", 33.0)),
        rows(
            "SELECT trial_id, host, monitor, device, t, metric, value FROM monitor_samples"
                + " ORDER BY host, monitor, device, metric, t"));
    List<Object> none = new ArrayList<>();
    none.addAll(List.of("reader", "reader.0", "client", "cli1", "realtime: prio 0"));
    none.add(null);
    none.add(null);
    none.add(0L);
    none.add(null);
    none.add(1L);
    assertEquals(
        List.of(
            none, List.of("writer", "writer.0", "client", "cli1", "idle", 10L, "0-1", 0L, 8.0, 0L)),
        rows(
            "SELECT job, process, role, host, ionice, nice, cpus, exit_code, seconds, stopped"
                + " FROM trial_processes ORDER BY process"));
    assertEquals(
        List.of(List.of("reader.0", "fio-json")), rows("SELECT process, kind FROM trial_outputs"));
    byte[] data = (byte[]) rows("SELECT data FROM trial_outputs").get(0).get(0);
    assertEquals(0x1f, data[0] & 0xff, "the gzip magic number: gzip -d reads it");
    assertEquals(0x8b, data[1] & 0xff);
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(data))) {
      assertEquals(FIO_JSON, new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
    // Monitor means are samples like any other: cell_stats covers them.
    assertEquals(
        List.of(
            List.of("iostat@client:sdb", "util_pct", 1L, 99.2),
            List.of("vmstat@client", "wa", 1L, 31.5)),
        rows("SELECT job, metric, n, mean FROM cell_stats WHERE job LIKE '%@%' ORDER BY job"));
  }

  @Test
  void runningATrialAgainReplacesEverythingItWrote() throws Exception {
    try (JdbcResultStore store = JdbcResultStore.open(db(), Fixtures.CLOCK)) {
      long id =
          store.createExperiment(
              experiment("rw", 1, 0, List.of(cell(1, "bs", "1M"))), Fixtures.TOOL_VERSION);
      long trial = store.unfinishedTrials(id).get(0).trialId();
      store.commitTrial(TrialCommit.of(trial, twoJobs(8)));
      store.startTrial(trial);

      assertEquals(List.of(List.of(0L, 0L, 0L)), counts());
      store.commitTrial(TrialCommit.of(trial, twoJobs(9)));
    }

    assertEquals(List.of(List.of(3L, 2L, 1L)), counts());
    assertEquals(
        List.of(List.of(9.0)), rows("SELECT seconds FROM trial_processes WHERE stopped = 0"));
  }

  @Test
  void deletingAnExperimentTakesItsMonitorRowsProcessesAndOutputsAlong() throws Exception {
    try (JdbcResultStore store = JdbcResultStore.open(db(), Fixtures.CLOCK)) {
      long id =
          store.createExperiment(
              experiment("rw", 1, 0, List.of(cell(1, "bs", "1M"))), Fixtures.TOOL_VERSION);
      store.commitTrial(TrialCommit.of(store.unfinishedTrials(id).get(0).trialId(), twoJobs(8)));
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db());
        Statement st = c.createStatement()) {
      st.execute("PRAGMA foreign_keys = ON");
      st.executeUpdate("DELETE FROM experiments");
    }

    assertEquals(List.of(List.of(0L, 0L, 0L)), counts());
  }

  @Test
  void aVersion1DatabaseIsUpgradedInPlaceAndKeepsItsExperiments() throws Exception {
    // A database as the first tunelab wrote it: schema version 1, one experiment with one
    // measured trial and one still pending.
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db());
        Statement st = c.createStatement()) {
      st.executeUpdate(
          "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
              + " applied_at TEXT NOT NULL)");
      st.executeUpdate(SqlDialect.SQLITE.schema(BundledSql.read("V1__init.sql")));
      st.executeUpdate(
          "INSERT INTO schema_version VALUES (1, 'V1__init.sql', '2024-01-01T00:00:00.000Z')");
      st.executeUpdate(
          "INSERT INTO experiments (id, name, status, matrix_yaml, order_mode, seed, repeat,"
              + " warmup, created_at) VALUES (1, 'old', 'interrupted', 'name: old', 'sequential',"
              + " 1, 2, 0, '2024-01-01T00:00:00.000Z')");
      st.executeUpdate("INSERT INTO cells VALUES (1, 1, 1, 'bs=1M')");
      st.executeUpdate("INSERT INTO cell_params VALUES (1, 'bs', '1M', 1)");
      st.executeUpdate(
          "INSERT INTO trials (id, experiment_id, cell_id, rep, seq, status) VALUES"
              + " (1, 1, 1, 1, 1, 'ok'), (2, 1, 1, 2, 2, 'pending')");
      st.executeUpdate(
          "INSERT INTO samples VALUES (1, 'all', 'seconds', 2.0, 's'), (1, 'dd.0', 'seconds',"
              + " 2.0, 's')");
      st.executeUpdate(
          "INSERT INTO cell_stats VALUES (1, 'all', 'seconds', 's', 1, 2.0, 0, NULL, 2.0, 2.0,"
              + " 2.0)");
    }
    // Reading does not change the file; it reads what version 1 has.
    try (ResultReader store = JdbcResultStore.openReadOnly(db())) {
      assertEquals("all", store.report(1).job());
    }
    assertEquals(List.of(List.of(1L)), rows("SELECT max(version) FROM schema_version"));

    try (JdbcResultStore store = JdbcResultStore.open(db(), Fixtures.CLOCK)) {
      assertEquals(
          Migrations.bundled().stream().map(m -> (long) m.version()).toList(),
          rows("SELECT version FROM schema_version ORDER BY version").stream()
              .map(r -> r.get(0))
              .toList());
      TrialRef pending = store.unfinishedTrials(1).get(0);
      assertEquals(2, pending.rep());
      store.startTrial(pending.trialId());
      store.commitTrial(TrialCommit.of(pending.trialId(), twoJobs(4)));

      ReportData data = store.report(1);
      assertEquals(2, data.cells().get(0).stats().get("seconds").n());
    }
    assertEquals(List.of(List.of(3L, 2L, 1L)), counts());
    assertEquals(
        List.of(List.of("V2__monitors_processes_outputs.sql", "2024-05-01T12:00:00.000Z")),
        rows("SELECT name, applied_at FROM schema_version WHERE version = 2"));
  }

  @Test
  void keptOutputIsGzipThatDecompressesToTheText() {
    String text = "ünïcode " + "x".repeat(10_000);
    byte[] data = GzipText.compress(text);

    assertTrue(data.length < 200, "compressed: " + data.length);
    assertEquals(text, GzipText.decompress(data));
    assertArrayEquals(new byte[] {0x1f, (byte) 0x8b}, new byte[] {data[0], data[1]});
  }

  private List<List<Object>> counts() throws SQLException {
    return rows(
        "SELECT (SELECT count(*) FROM monitor_samples), (SELECT count(*) FROM trial_processes),"
            + " (SELECT count(*) FROM trial_outputs)");
  }

  private List<List<Object>> rows(String sql) throws SQLException {
    return Fixtures.rows(db(), sql);
  }
}
