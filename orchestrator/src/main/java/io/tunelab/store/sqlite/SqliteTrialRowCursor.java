package io.tunelab.store.sqlite;

import io.tunelab.store.ExportedTrial;
import io.tunelab.store.JobNames;
import io.tunelab.store.TrialRow;
import io.tunelab.store.TrialRowSink;
import io.tunelab.store.TrialStatus;
import io.tunelab.store.TrialTable;
import io.tunelab.store.sql.SqlDialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Streams the rows of a per-trial table ({@link TrialTable}: processes, kept outputs) of one
 * experiment to a {@link TrialRowSink}, in one read transaction and one cursor, kept output
 * decompressed as it is read.
 */
final class SqliteTrialRowCursor {
  // The job of a kept output's process: writer.0 belongs to writer (job names hold no dot).
  private static String outputJob(SqlDialect dialect) {
    String dot = dialect.position("o.process", "'.'");
    return "CASE WHEN "
        + dot
        + " > 0 THEN substr(o.process, 1, "
        + dot
        + " - 1) ELSE o.process END";
  }

  private static final String TRIAL =
      "SELECT t.id, c.id, t.rep, t.seq, t.warmup, t.status, t.started_at, ";

  private static final String FROM = " FROM cells c JOIN trials t ON t.cell_id = c.id";

  private SqliteTrialRowCursor() {}

  /**
   * Sends the experiment's rows of {@code table} for {@code jobs} (jobs or processes; all when
   * empty) to {@code sink}; returns how many there were. A name no row has fails with exit code 2.
   */
  static long stream(
      Transactions tx, long experimentId, TrialTable table, List<String> jobs, TrialRowSink sink) {
    return tx.transaction(
        "export experiment " + experimentId, c -> stream(c, experimentId, table, jobs, sink));
  }

  private static long stream(
      Connection db, long id, TrialTable table, List<String> jobs, TrialRowSink sink)
      throws SQLException {
    SqliteCellColumns columns = SqliteCellColumns.read(db, id);
    // A version 1 database opened read-only has neither table: nothing was recorded.
    boolean exists = exists(db, table);
    checkJobs(db, id, "experiment " + id + " (" + columns.experiment + ")", table, jobs);
    sink.columns(table.columns(), columns.paramNames, columns.knobNames);
    long rows = 0;
    if (exists) {
      try (PreparedStatement ps =
          db.prepareStatement(select(SqlDialect.of(db), table, jobs.size()))) {
        int i = 1;
        ps.setLong(i++, id);
        for (int twice = 0; twice < 2; twice++) {
          for (String job : jobs) {
            ps.setString(i++, job);
          }
        }
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            long cellId = rs.getLong(2);
            SqliteCellColumns.Columns cell = columns.of(cellId);
            sink.row(
                new TrialRow(
                    new ExportedTrial(
                        id,
                        columns.experiment,
                        cellId,
                        cell.ordinal(),
                        cell.label(),
                        rs.getLong(1),
                        rs.getInt(3),
                        rs.getInt(4),
                        rs.getInt(5) != 0,
                        TrialStatus.of(rs.getString(6)),
                        rs.getString(7),
                        cell.params(),
                        cell.knobs()),
                    values(rs, table)));
            rows++;
          }
        }
      }
    }
    sink.end();
    return rows;
  }

  /** Fails with exit code 2 when one of {@code jobs} names no job or process of the table. */
  static void checkJobs(
      Connection db, long id, String experiment, TrialTable table, List<String> jobs)
      throws SQLException {
    if (jobs.isEmpty()) {
      return;
    }
    Set<String> known = exists(db, table) ? names(db, id, table) : Set.of();
    for (String job : jobs) {
      if (!known.contains(job)) {
        throw JobNames.unknown(experiment, job, known);
      }
    }
  }

  private static String select(SqlDialect dialect, TrialTable table, int jobs) {
    String in = SqliteSampleCursor.marks(jobs);
    return switch (table) {
      case PROCESSES ->
          TRIAL
              + "p.job, p.process, p.role, p.host, p.ionice, p.nice, p.cpus, p.exit_code,"
              + " p.seconds, p.stopped"
              + FROM
              + " JOIN trial_processes p ON p.trial_id = t.id WHERE c.experiment_id = ?"
              + (jobs == 0 ? "" : " AND (p.job IN (" + in + ") OR p.process IN (" + in + "))")
              // writer.2 before writer.10
              + " ORDER BY c.ordinal, t.rep, t.seq, p.job, length(p.process), p.process";
      case OUTPUTS ->
          TRIAL
              + outputJob(dialect)
              + ", o.process, o.kind, o.data"
              + FROM
              + " JOIN trial_outputs o ON o.trial_id = t.id WHERE c.experiment_id = ?"
              + (jobs == 0
                  ? ""
                  : " AND ("
                      + outputJob(dialect)
                      + " IN ("
                      + in
                      + ") OR o.process IN ("
                      + in
                      + "))")
              + " ORDER BY c.ordinal, t.rep, t.seq, 8, length(o.process), o.process, o.kind";
    };
  }

  private static List<Object> values(ResultSet rs, TrialTable table) throws SQLException {
    List<Object> values = new ArrayList<>(table.columns().size());
    switch (table) {
      case PROCESSES -> {
        values.add(rs.getString(8));
        values.add(rs.getString(9));
        values.add(rs.getString(10));
        values.add(rs.getString(11));
        values.add(rs.getString(12));
        values.add(longOrNull(rs, 13));
        values.add(rs.getString(14));
        values.add(longOrNull(rs, 15));
        double seconds = rs.getDouble(16);
        values.add(rs.wasNull() ? null : seconds);
        values.add(rs.getInt(17) != 0);
      }
      case OUTPUTS -> {
        values.add(rs.getString(8));
        values.add(rs.getString(9));
        values.add(rs.getString(10));
        values.add(GzipText.decompress(rs.getBytes(11)));
      }
    }
    return values;
  }

  private static Long longOrNull(ResultSet rs, int column) throws SQLException {
    long v = rs.getLong(column);
    return rs.wasNull() ? null : v;
  }

  /** Every job and process name the experiment's rows of {@code table} have. */
  private static Set<String> names(Connection db, long id, TrialTable table) throws SQLException {
    String sql =
        switch (table) {
          case PROCESSES ->
              "SELECT p.job, p.process FROM trials t JOIN trial_processes p ON p.trial_id = t.id"
                  + " WHERE t.experiment_id = ? GROUP BY p.job, p.process";
          case OUTPUTS ->
              "SELECT "
                  + outputJob(SqlDialect.of(db))
                  + ", o.process FROM trials t JOIN trial_outputs o ON o.trial_id = t.id"
                  + " WHERE t.experiment_id = ? GROUP BY o.process";
        };
    Set<String> names = new TreeSet<>();
    try (PreparedStatement ps = db.prepareStatement(sql)) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          names.add(rs.getString(1));
          names.add(rs.getString(2));
        }
      }
    }
    return names;
  }

  private static boolean exists(Connection db, TrialTable table) throws SQLException {
    try (PreparedStatement ps = db.prepareStatement(SqlDialect.of(db).tableExistsQuery())) {
      ps.setString(1, table == TrialTable.PROCESSES ? "trial_processes" : "trial_outputs");
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() && rs.getLong(1) > 0;
      }
    }
  }
}
