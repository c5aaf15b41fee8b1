package io.tunelab.store.sqlite;

import static io.tunelab.store.sqlite.SqliteStatements.update;

import io.tunelab.Timestamps;
import io.tunelab.store.ExperimentProgress;
import io.tunelab.store.ExperimentProgress.CurrentTrial;
import io.tunelab.store.ExperimentProgress.Event;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.sql.SqlDialect;
import io.tunelab.store.sqlite.Transactions.Work;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * The {@code events} of a run, and the progress {@code status} reads from another process while the
 * run goes on (WAL lets a reader in beside the writer).
 */
final class SqliteEvents {
  private final Transactions tx;
  private final Timestamps time;

  SqliteEvents(Transactions tx, Timestamps time) {
    this.tx = tx;
    this.time = time;
  }

  /** See {@link ResultStore#recordEvent}. */
  void record(long experimentId, String kind, String host, String message) {
    // The key is made once, outside the transaction: a try that runs again after its COMMIT
    // reached the database but its answer did not inserts nothing.
    Work<Integer> insert = insert(experimentId, time.now(), kind, host, message, Keys.fresh());
    tx.transaction("record an event", insert);
  }

  /**
   * Inserts an event of the experiment of trial {@code trialId}, in the caller's transaction,
   * unless one with key {@code key} is there.
   */
  static void insertForTrial(
      Connection c, long trialId, String at, String kind, String message, String key)
      throws SQLException {
    update(
        c,
        "INSERT INTO events (experiment_id, at, kind, host, message, idem)"
            + " SELECT experiment_id, ?, ?, NULL, ?, ? FROM trials WHERE id = ?"
            + " ON CONFLICT (idem) DO NOTHING",
        at,
        kind,
        message,
        key,
        trialId);
  }

  private static Work<Integer> insert(
      long experimentId, String at, String kind, String host, String message, String key) {
    return c ->
        update(
            c,
            "INSERT INTO events (experiment_id, at, kind, host, message, idem)"
                + " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (idem) DO NOTHING",
            experimentId,
            at,
            kind,
            host,
            message,
            key);
  }

  /** The experiment's progress, or empty when there is no such experiment. */
  Optional<ExperimentProgress> progress(long experimentId) {
    return tx.transaction(
        "read the progress of experiment " + experimentId,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT name, status, ok, failed, skipped, pending, running"
                      + " FROM experiment_progress WHERE experiment_id = ?")) {
            ps.setLong(1, experimentId);
            try (ResultSet rs = ps.executeQuery()) {
              if (!rs.next()) {
                return Optional.empty();
              }
              boolean events = hasEvents(c, tx.dialect());
              return Optional.of(
                  new ExperimentProgress(
                      experimentId,
                      rs.getString(1),
                      ExperimentStatus.of(rs.getString(2)),
                      SqliteExperiments.counts(rs, 3),
                      meanSeconds(c, tx.dialect(), experimentId),
                      events ? runStartedAt(c, experimentId) : null,
                      current(c, experimentId),
                      events ? lastEvent(c, experimentId) : null));
            }
          }
        });
  }

  /** A database that no run of this tunelab has migrated yet has no events table. */
  private static boolean hasEvents(Connection c, SqlDialect dialect) throws SQLException {
    return SqliteStatements.queryLong(c, dialect.tableExistsQuery(), "events") > 0;
  }

  private static Double meanSeconds(Connection c, SqlDialect dialect, long experimentId)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT avg("
                + dialect.secondsBetween("started_at", "finished_at")
                + ") FROM trials WHERE experiment_id = ? AND status IN ('ok', 'failed')"
                + " AND started_at IS NOT NULL AND finished_at IS NOT NULL")) {
      ps.setLong(1, experimentId);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        double mean = rs.getDouble(1);
        return rs.wasNull() ? null : mean;
      }
    }
  }

  private static String runStartedAt(Connection c, long experimentId) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT at FROM events WHERE experiment_id = ? AND kind = 'start'"
                + " ORDER BY id DESC LIMIT 1")) {
      ps.setLong(1, experimentId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  private static CurrentTrial current(Connection c, long experimentId) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT t.id, t.seq, c.label, t.rep, t.warmup, t.started_at"
                + " FROM trials t JOIN cells c ON c.id = t.cell_id"
                + " WHERE t.experiment_id = ? AND t.status = 'running'"
                + " ORDER BY t.started_at DESC, t.seq DESC LIMIT 1")) {
      ps.setLong(1, experimentId);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return null;
        }
        return new CurrentTrial(
            rs.getLong(1),
            rs.getInt(2),
            rs.getString(3),
            rs.getInt(4),
            rs.getInt(5) != 0,
            rs.getString(6));
      }
    }
  }

  private static Event lastEvent(Connection c, long experimentId) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT at, kind, host, message FROM events WHERE experiment_id = ?"
                + " ORDER BY id DESC LIMIT 1")) {
      ps.setLong(1, experimentId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next()
            ? new Event(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4))
            : null;
      }
    }
  }
}
