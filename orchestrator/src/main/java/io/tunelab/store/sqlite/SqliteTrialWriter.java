package io.tunelab.store.sqlite;

import static io.tunelab.store.sqlite.SqliteStatements.update;

import io.tunelab.Timestamps;
import io.tunelab.store.Attempt;
import io.tunelab.store.EventKind;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.MonitorSample;
import io.tunelab.store.ProcessRecord;
import io.tunelab.store.ResultStore;
import io.tunelab.store.SettingRow;
import io.tunelab.store.TrialCommit;
import io.tunelab.store.TrialFlag;
import io.tunelab.store.TrialOutput;
import io.tunelab.store.TrialResult;
import io.tunelab.store.TrialStatus;
import io.tunelab.store.TrialValue;
import io.tunelab.workload.Sample;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Writes progress while an experiment runs: its status, each trial's start, and each trial's
 * outcome with its samples, settings, monitor rows, processes, kept output and health flags and its
 * cell's refreshed statistics, in one transaction.
 */
final class SqliteTrialWriter {
  private final Transactions tx;
  private final Timestamps time;

  SqliteTrialWriter(Transactions tx, Timestamps time) {
    this.tx = tx;
    this.time = time;
  }

  /** See {@link ResultStore#setExperimentStatus}. */
  void setExperimentStatus(long experimentId, ExperimentStatus status) {
    String now = time.now();
    int changed =
        tx.transaction(
            "set status of experiment " + experimentId,
            c ->
                switch (status) {
                  case RUNNING ->
                      update(
                          c,
                          "UPDATE experiments SET status = ?, started_at = coalesce(started_at, ?),"
                              + " finished_at = NULL WHERE id = ?",
                          status.text(),
                          now,
                          experimentId);
                  case PLANNED ->
                      update(
                          c,
                          "UPDATE experiments SET status = ? WHERE id = ?",
                          status.text(),
                          experimentId);
                  default ->
                      update(
                          c,
                          "UPDATE experiments SET status = ?, finished_at = ? WHERE id = ?",
                          status.text(),
                          now,
                          experimentId);
                });
    if (changed == 0) {
      throw new IllegalArgumentException("no experiment " + experimentId);
    }
  }

  /** See {@link ResultStore#startTrial}. */
  void startTrial(long trialId) {
    transaction("start trial " + trialId, c -> start(c, trialId, time.now()));
  }

  /** See {@link ResultStore#unstartTrial}. */
  void unstartTrial(long trialId) {
    tx.transaction(
        "set trial " + trialId + " back to pending",
        c ->
            update(
                c,
                "UPDATE trials SET status = ?, started_at = NULL WHERE id = ? AND status = ?",
                TrialStatus.PENDING.text(),
                trialId,
                TrialStatus.RUNNING.text()));
  }

  /** See {@link io.tunelab.store.RunStore#statisticsValues}. */
  double[] statisticsValues(long cellId, String job, String metric) {
    return tx.transaction(
        "read the measurements of cell " + cellId,
        c -> SqliteCellStatistics.values(c, cellId, job, metric));
  }

  /** See {@link io.tunelab.store.RunStore#trialValues}. */
  List<TrialValue> trialValues(long experimentId, String job, String metric) {
    return tx.transaction(
        "read the measurements of experiment " + experimentId,
        c -> SqliteCellStatistics.trialValues(c, experimentId, job, metric));
  }

  /** See {@link io.tunelab.store.RunStore#skipPendingTrials}. */
  int skipPendingTrials(long cellId, String reason) {
    String now = time.now();
    return tx.transaction(
        "skip the trials cell " + cellId + " does not need",
        c ->
            update(
                c,
                "UPDATE trials SET status = ?, error = ?, finished_at = ?"
                    + " WHERE cell_id = ? AND status = ?",
                TrialStatus.SKIPPED.text(),
                reason,
                now,
                cellId,
                TrialStatus.PENDING.text()));
  }

  private void start(Connection c, long trialId, String now) throws SQLException {
    int started =
        update(
            c,
            "UPDATE trials SET status = ?, started_at = ?, finished_at = NULL,"
                + " error = NULL, workload_seconds = NULL WHERE id = ?",
            TrialStatus.RUNNING.text(),
            now,
            trialId);
    if (started == 0) {
      throw new IllegalArgumentException("no trial " + trialId);
    }
    // A trial run again must not leave its old samples in the statistics.
    if (deleteOutcome(c, trialId) > 0) {
      SqliteCellStatistics.refresh(c, cellOf(c, trialId));
    }
  }

  /** See {@link ResultStore#commitTrial}. */
  void commit(TrialCommit commit) {
    String now = time.now();
    String key = Keys.fresh();
    transaction(
        "finish trial " + commit.trialId(),
        c -> {
          write(c, commit, now, key);
          if (commit.startNext().isPresent()) {
            start(c, commit.startNext().getAsLong(), now);
          }
        });
  }

  /**
   * Stores a commit kept in a side file, as it ended at {@code finishedAt} (without its next
   * trial's start), unless the trial has finished since; returns whether it stored it.
   */
  boolean commitIfUnfinished(TrialCommit commit, String finishedAt) {
    long trialId = commit.trialId();
    String key = Keys.fresh();
    return tx.transaction(
        "store the kept trial " + trialId,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement("SELECT status FROM trials WHERE id = ?")) {
            ps.setLong(1, trialId);
            try (ResultSet rs = ps.executeQuery()) {
              if (!rs.next() || TrialStatus.of(rs.getString(1)).finished()) {
                return false;
              }
            }
          }
          write(c, commit, finishedAt, key);
          return true;
        });
  }

  // The commit's attempts and event line carry keys derived from {@code key}, made once per
  // commit: everything else it writes is replaced, not added, when it runs again.
  private void write(Connection c, TrialCommit commit, String now, String key) throws SQLException {
    finish(c, commit.trialId(), commit.result(), now);
    int n = 0;
    for (Attempt attempt : commit.attempts()) {
      SqliteAttempts.insert(c, commit.trialId(), attempt, key + "/attempt/" + ++n);
    }
    if (commit.event() != null) {
      SqliteEvents.insertForTrial(
          c, commit.trialId(), now, EventKind.TRIAL.text(), commit.event(), key + "/event");
    }
    SqliteBoots.insertTrialHosts(c, commit.trialId(), commit.hosts());
  }

  private void finish(Connection c, long trialId, TrialResult result, String now)
      throws SQLException {
    long cellId = cellOf(c, trialId);
    update(
        c,
        "UPDATE trials SET status = ?, started_at = coalesce(started_at, ?),"
            + " finished_at = ?, error = ?, workload_seconds = ? WHERE id = ?",
        result.status().text(),
        now,
        now,
        result.error(),
        result.workloadSeconds(),
        trialId);
    deleteOutcome(c, trialId);
    insertSamples(c, trialId, listOrEmpty(result.samples()));
    insertSettings(c, trialId, listOrEmpty(result.settings()));
    insertMonitorRows(c, trialId, listOrEmpty(result.monitorRows()));
    insertProcesses(c, trialId, listOrEmpty(result.processes()));
    insertOutputs(c, trialId, listOrEmpty(result.outputs()));
    insertFlags(c, trialId, listOrEmpty(result.flags()));
    SqliteCellStatistics.refresh(c, cellId);
  }

  /** Work of one transaction that returns nothing. */
  private interface Writes {
    void write(Connection c) throws SQLException;
  }

  private void transaction(String what, Writes writes) {
    tx.transaction(
        what,
        c -> {
          writes.write(c);
          return null;
        });
  }

  // Only the last attempt of a trial counts: what an earlier one wrote goes.
  // Returns the number of rows deleted.
  private static int deleteOutcome(Connection c, long trialId) throws SQLException {
    int deleted = 0;
    for (String table :
        List.of(
            "samples",
            "settings",
            "monitor_samples",
            "trial_processes",
            "trial_outputs",
            "trial_flags")) {
      deleted += update(c, "DELETE FROM " + table + " WHERE trial_id = ?", trialId);
    }
    return deleted;
  }

  private static void insertSamples(Connection c, long trialId, List<Sample> samples)
      throws SQLException {
    try (SqliteBatch rows =
        new SqliteBatch(
            c,
            "INSERT INTO samples (trial_id, job, metric, value, unit, pos)"
                + " VALUES (?, ?, ?, ?, ?, ?)")) {
      int pos = 0;
      for (Sample s : samples) {
        rows.add(trialId, s.job(), s.metric(), s.value(), s.unit(), ++pos);
      }
    }
  }

  private static void insertSettings(Connection c, long trialId, List<SettingRow> settings)
      throws SQLException {
    try (SqliteBatch rows =
        new SqliteBatch(
            c,
            "INSERT INTO settings (trial_id, role, host, knob, path, requested, effective,"
                + " original, written) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      for (SettingRow s : settings) {
        rows.add(
            trialId,
            s.role(),
            s.host(),
            s.knob(),
            s.path(),
            s.requested(),
            s.effective(),
            s.original(),
            s.written());
      }
    }
  }

  private static void insertMonitorRows(Connection c, long trialId, List<MonitorSample> rows)
      throws SQLException {
    try (SqliteBatch batch =
        new SqliteBatch(
            c,
            "INSERT INTO monitor_samples (trial_id, host, monitor, device, t, metric, value)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?)")) {
      for (MonitorSample m : rows) {
        batch.add(
            trialId,
            m.host(),
            m.monitor(),
            m.device() == null ? "" : m.device(),
            m.t(),
            m.metric(),
            m.value());
      }
    }
  }

  private static void insertProcesses(Connection c, long trialId, List<ProcessRecord> processes)
      throws SQLException {
    try (SqliteBatch batch =
        new SqliteBatch(
            c,
            "INSERT INTO trial_processes (trial_id, job, process, role, host, ionice, nice, cpus,"
                + " exit_code, seconds, stopped) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      for (ProcessRecord p : processes) {
        batch.add(
            trialId,
            p.job(),
            p.process(),
            p.role(),
            p.host(),
            p.ionice(),
            p.nice(),
            p.cpus(),
            p.exitCode(),
            p.seconds(),
            p.stopped());
      }
    }
  }

  private static void insertOutputs(Connection c, long trialId, List<TrialOutput> outputs)
      throws SQLException {
    try (SqliteBatch batch =
        new SqliteBatch(
            c, "INSERT INTO trial_outputs (trial_id, process, kind, data) VALUES (?, ?, ?, ?)")) {
      for (TrialOutput o : outputs) {
        if (o.text() == null) {
          continue; // nothing was kept
        }
        batch.add(trialId, o.process(), o.kind(), GzipText.compress(o.text()));
      }
    }
  }

  private static void insertFlags(Connection c, long trialId, List<TrialFlag> flags)
      throws SQLException {
    try (SqliteBatch batch =
        new SqliteBatch(
            c,
            "INSERT INTO trial_flags (trial_id, host, flag, detail, pos) VALUES (?, ?, ?, ?, ?)")) {
      int pos = 0;
      for (TrialFlag f : flags) {
        batch.add(trialId, f.host(), f.flag(), f.detail(), ++pos);
      }
    }
  }

  private static long cellOf(Connection c, long trialId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT cell_id FROM trials WHERE id = ?")) {
      ps.setLong(1, trialId);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new IllegalArgumentException("no trial " + trialId);
        }
        return rs.getLong(1);
      }
    }
  }

  private static <T> List<T> listOrEmpty(List<T> list) {
    return list == null ? List.of() : list;
  }
}
