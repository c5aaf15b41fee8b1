package io.tunelab.store;

import io.tunelab.TunelabException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

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

  /** Sends the experiment's samples to {@code sink}; returns how many there were. */
  static long stream(SqliteTransactions tx, long experimentId, SampleSink sink) {
    return tx.transaction("export experiment " + experimentId, c -> stream(c, experimentId, sink));
  }

  private static long stream(Connection db, long experimentId, SampleSink sink)
      throws SQLException {
    String name = name(db, experimentId);
    List<SqliteCellReader.StoredCell> cells = new SqliteCellReader(db).stored(experimentId);
    Set<String> params = new LinkedHashSet<>();
    Set<String> knobs = new LinkedHashSet<>();
    for (SqliteCellReader.StoredCell c : cells) {
      params.addAll(c.cell().params().keySet());
      knobs.addAll(c.cell().knobs().keySet());
    }
    List<String> paramNames = List.copyOf(params);
    List<String> knobNames = List.copyOf(knobs);
    Map<Long, Columns> byId = new HashMap<>();
    for (SqliteCellReader.StoredCell c : cells) {
      byId.put(
          c.id(),
          new Columns(
              c.cell().ordinal(),
              c.cell().label(),
              values(c.cell().params(), paramNames),
              values(c.cell().knobs(), knobNames)));
    }
    sink.columns(paramNames, knobNames);
    long rows = 0;
    try (PreparedStatement ps = db.prepareStatement(SAMPLES)) {
      ps.setLong(1, experimentId);
      try (ResultSet rs = ps.executeQuery()) {
        // Each column read crosses JNI: the trial's columns are read once per trial, not once
        // per sample, which halves the cost of a million rows.
        long trial = -1;
        long cellId = 0;
        Columns cell = null;
        int rep = 0;
        int seq = 0;
        boolean warmup = false;
        TrialStatus status = null;
        String startedAt = null;
        while (rs.next()) {
          if (rs.getLong(1) != trial) {
            trial = rs.getLong(1);
            cellId = rs.getLong(6);
            cell = byId.get(cellId);
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
                  experimentId,
                  name,
                  cellId,
                  cell.ordinal(),
                  cell.label(),
                  trial,
                  rep,
                  seq,
                  warmup,
                  status,
                  startedAt,
                  rs.getString(2),
                  rs.getString(3),
                  measured,
                  rs.getString(5),
                  cell.params(),
                  cell.knobs()));
          rows++;
        }
      }
    }
    sink.end();
    return rows;
  }

  /** What every sample of one cell repeats. */
  private record Columns(int ordinal, String label, List<String> params, List<String> knobs) {}

  private static List<String> values(Map<String, String> entries, List<String> names) {
    List<String> values = new ArrayList<>(names.size());
    for (String n : names) {
      values.add(entries.get(n));
    }
    // Values may be null (a knob only some cases set), which List.copyOf refuses.
    return Collections.unmodifiableList(values);
  }

  private static String name(Connection db, long id) throws SQLException {
    try (PreparedStatement ps = db.prepareStatement("SELECT name FROM experiments WHERE id = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new TunelabException(TunelabException.BAD_INPUT, "no experiment " + id);
        }
        return rs.getString(1);
      }
    }
  }
}
