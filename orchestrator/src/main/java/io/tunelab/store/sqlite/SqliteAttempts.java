package io.tunelab.store.sqlite;

import io.tunelab.Timestamps;
import io.tunelab.store.Attempt;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Writes {@code trial_attempts}: one row per attempt of a trial, numbered per trial. */
final class SqliteAttempts {
  private final Transactions tx;

  SqliteAttempts(Transactions tx) {
    this.tx = tx;
  }

  /** See {@link ResultStore#recordAttempt}. */
  int record(long trialId, Attempt attempt) {
    String key = Keys.fresh();
    return tx.transaction(
        "record an attempt of trial " + trialId, c -> insert(c, trialId, attempt, key));
  }

  /**
   * Inserts an attempt numbered after the trial's others, in the caller's transaction, unless the
   * one with key {@code key} is there; returns its number.
   */
  static int insert(Connection c, long trialId, Attempt attempt, String key) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT attempt FROM trial_attempts WHERE idem = ?")) {
      ps.setString(1, key);
      try (ResultSet rs = ps.executeQuery()) {
        if (rs.next()) {
          return rs.getInt(1);
        }
      }
    }
    int number;
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT coalesce(max(attempt), 0) + 1 FROM trial_attempts WHERE trial_id = ?")) {
      ps.setLong(1, trialId);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        number = rs.getInt(1);
      }
    }
    SqliteStatements.update(
        c,
        "INSERT INTO trial_attempts (trial_id, attempt, started_at, finished_at, status,"
            + " error, idem) VALUES (?, ?, ?, ?, ?, ?, ?)",
        trialId,
        number,
        Timestamps.of(attempt.startedAt()),
        Timestamps.of(attempt.finishedAt()),
        attempt.status().text(),
        attempt.error(),
        key);
    return number;
  }
}
