package io.tunelab.store.sqlite;

import io.tunelab.store.ExportedTrial;
import io.tunelab.store.JobNames;
import io.tunelab.store.SampleRow;
import io.tunelab.store.SampleSink;
import io.tunelab.store.TrialStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Streams every sample of an experiment to a {@link SampleSink} through one cursor, in a single
 * read transaction (a consistent snapshot even while the experiment runs). Memory grows with the
 * number of cells (their parameters and knobs), never with the number of samples.
 */
final class SqliteSampleCursor {
  // Cells by ordinal through their unique index, trials by (cell_id, rep), samples by
  // (trial_id, job, metric): SQLite walks the indexes in order and sorts nothing but the
  // few trials of one repetition number.
  private static final String SAMPLES =
      "SELECT t.id, s.job, s.metric, s.value, s.unit,"
          + " c.id, t.rep, t.seq, t.warmup, t.status, t.started_at"
          + " FROM cells c JOIN trials t ON t.cell_id = c.id JOIN samples s ON s.trial_id = t.id"
          + " WHERE c.experiment_id = ?"
          + " ORDER BY c.ordinal, t.rep, t.seq, s.job, s.metric";

  private SqliteSampleCursor() {}

  /**
   * Sends the experiment's samples of {@code jobs} (all when empty) to {@code sink}; returns how
   * many there were. A job the experiment never measured fails with exit code 2, naming the jobs.
   */
  static long stream(Transactions tx, long experimentId, List<String> jobs, SampleSink sink) {
    return tx.transaction(
        "export experiment " + experimentId, c -> stream(c, experimentId, jobs, sink));
  }

  private static long stream(Connection db, long experimentId, List<String> jobs, SampleSink sink)
      throws SQLException {
    SqliteCellColumns columns = SqliteCellColumns.read(db, experimentId);
    checkJobs(
        db, experimentId, "experiment " + experimentId + " (" + columns.experiment + ")", jobs);
    sink.columns(columns.paramNames, columns.knobNames);
    String sql =
        jobs.isEmpty()
            ? SAMPLES
            : SAMPLES.replace(" ORDER BY", " AND s.job IN (" + marks(jobs.size()) + ") ORDER BY");
    long rows = 0;
    try (PreparedStatement ps = db.prepareStatement(sql)) {
      ps.setLong(1, experimentId);
      for (int i = 0; i < jobs.size(); i++) {
        ps.setString(i + 2, jobs.get(i));
      }
      try (ResultSet rs = ps.executeQuery()) {
        // Each column read crosses JNI: the trial's columns are read once per trial, not once
        // per sample, which halves the cost of a million rows.
        long trial = -1;
        long cellId = 0;
        SqliteCellColumns.Columns cell = null;
        int rep = 0;
        int seq = 0;
        boolean warmup = false;
        TrialStatus status = null;
        String startedAt = null;
        while (rs.next()) {
          if (rs.getLong(1) != trial) {
            trial = rs.getLong(1);
            cellId = rs.getLong(6);
            cell = columns.of(cellId);
            rep = rs.getInt(7);
            seq = rs.getInt(8);
            warmup = rs.getInt(9) != 0;
            status = TrialStatus.of(rs.getString(10));
            startedAt = rs.getString(11);
          }
          double value = rs.getDouble(4);
          Double measured = rs.wasNull() ? null : value;
          sink.sample(
              new SampleRow(
                  new ExportedTrial(
                      experimentId,
                      columns.experiment,
                      cellId,
                      cell.ordinal(),
                      cell.label(),
                      trial,
                      rep,
                      seq,
                      warmup,
                      status,
                      startedAt,
                      cell.params(),
                      cell.knobs()),
                  rs.getString(2),
                  rs.getString(3),
                  measured,
                  rs.getString(5)));
          rows++;
        }
      }
    }
    sink.end();
    return rows;
  }

  /** {@code ?, ?, ?}: the placeholders of an IN list. */
  static String marks(int n) {
    return String.join(", ", Collections.nCopies(n, "?"));
  }

  // The jobs with statistics answer almost every question at once; a job only failed trials
  // measured is looked up by name.
  static void checkJobs(Connection db, long id, String experiment, List<String> jobs)
      throws SQLException {
    if (jobs.isEmpty()) {
      return;
    }
    Set<String> known = new TreeSet<>();
    try (PreparedStatement ps =
        db.prepareStatement(
            "SELECT DISTINCT st.job FROM cell_stats st JOIN cells c ON c.id = st.cell_id"
                + " WHERE c.experiment_id = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          known.add(rs.getString(1));
        }
      }
    }
    for (String job : jobs) {
      if (!known.contains(job) && !measured(db, id, job)) {
        throw JobNames.unknown(experiment, job, known);
      }
    }
  }

  private static boolean measured(Connection db, long id, String job) throws SQLException {
    try (PreparedStatement ps =
        db.prepareStatement(
            "SELECT 1 FROM samples s JOIN trials t ON t.id = s.trial_id"
                + " WHERE t.experiment_id = ? AND s.job = ? LIMIT 1")) {
      ps.setLong(1, id);
      ps.setString(2, job);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }
}
