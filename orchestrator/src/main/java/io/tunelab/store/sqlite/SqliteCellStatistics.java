package io.tunelab.store.sqlite;

import io.tunelab.stats.Summary;
import io.tunelab.store.TrialStatus;
import io.tunelab.store.TrialValue;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Recomputes {@code cell_stats} for one cell from the samples of its {@code ok}, non-warm-up
 * trials, leaving out flagged ones when the experiment's {@code on_flag} is {@code exclude}. Runs
 * inside the caller's transaction, so the table never disagrees with the samples.
 */
final class SqliteCellStatistics {
  /**
   * The samples the statistics count: those of the cell's ok, measured trials, less the flagged
   * ones when the experiment excludes them.
   */
  private static final String COUNTED =
      " FROM samples s JOIN trials t ON t.id = s.trial_id"
          + " WHERE t.cell_id = ? AND t.status = ? AND t.warmup = 0 AND s.value IS NOT NULL"
          + " AND NOT EXISTS (SELECT 1 FROM trial_flags f JOIN experiments e"
          + " ON e.id = t.experiment_id WHERE f.trial_id = t.id AND e.on_flag = 'exclude')";

  /**
   * The values grouped by job and metric, each group numbered: a row's job, metric and unit are
   * read only where its group starts (or while its unit is unknown), since every column read is a
   * call through the driver and a cell has a few hundred rows.
   */
  private static final String VALUES =
      "SELECT dense_rank() OVER (ORDER BY s.job, s.metric), s.job, s.metric, s.unit, s.value"
          + COUNTED
          + " ORDER BY s.job, s.metric, t.rep, t.seq";

  private static final String ONE_METRIC =
      "SELECT s.value" + COUNTED + " AND s.job = ? AND s.metric = ? ORDER BY t.rep, t.seq";

  private SqliteCellStatistics() {}

  static void refresh(Connection db, long cellId) throws SQLException {
    try (PreparedStatement ps = db.prepareStatement("DELETE FROM cell_stats WHERE cell_id = ?")) {
      ps.setLong(1, cellId);
      ps.executeUpdate();
    }
    try (PreparedStatement select = db.prepareStatement(VALUES);
        SqliteBatch insert =
            new SqliteBatch(
                db,
                "INSERT INTO cell_stats (cell_id, job, metric, unit, n, mean, stddev_pop,"
                    + " stddev_samp, min, median, max) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      SqliteStatements.bindAll(select, cellId, TrialStatus.OK.text());
      try (ResultSet rs = select.executeQuery()) {
        Group group = null;
        long number = 0;
        while (rs.next()) {
          long n = rs.getLong(1);
          if (n != number) {
            write(insert, cellId, group);
            number = n;
            group = new Group(rs.getString(2), rs.getString(3));
          }
          if (group.unit == null) {
            group.unit = rs.getString(4);
          }
          group.add(rs.getDouble(5));
        }
        write(insert, cellId, group);
      }
    }
  }

  /** The values of one job's metric that {@link #refresh} summarises, in repetition order. */
  static double[] values(Connection db, long cellId, String job, String metric)
      throws SQLException {
    List<Double> values = new ArrayList<>();
    try (PreparedStatement ps = db.prepareStatement(ONE_METRIC)) {
      SqliteStatements.bindAll(ps, cellId, TrialStatus.OK.text(), job, metric);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          values.add(rs.getDouble(1));
        }
      }
    }
    return values.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /** See {@link io.tunelab.store.RunStore#trialValues}. */
  static List<TrialValue> trialValues(Connection db, long experimentId, String job, String metric)
      throws SQLException {
    List<TrialValue> values = new ArrayList<>();
    try (PreparedStatement ps =
        db.prepareStatement(
            // A trial with several samples of the metric (a parser's lines) counts their mean.
            "SELECT c.ordinal, tt.rep, (SELECT avg(s.value)"
                + COUNTED.replace("t.cell_id = ?", "t.id = tt.id")
                + " AND s.job = ? AND s.metric = ?)"
                + " FROM trials tt JOIN cells c ON c.id = tt.cell_id"
                + " WHERE tt.experiment_id = ? AND tt.status IN (?, ?) AND tt.warmup = 0"
                + " ORDER BY tt.seq")) {
      SqliteStatements.bindAll(
          ps,
          TrialStatus.OK.text(),
          job,
          metric,
          experimentId,
          TrialStatus.OK.text(),
          TrialStatus.FAILED.text());
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          // getObject: the driver's wasNull() misses a NULL the subquery computed.
          Object v = rs.getObject(3);
          values.add(
              new TrialValue(
                  rs.getInt(1), rs.getInt(2), v == null ? Double.NaN : ((Number) v).doubleValue()));
        }
      }
    }
    return values;
  }

  private static void write(SqliteBatch insert, long cellId, Group g) throws SQLException {
    if (g == null) {
      return;
    }
    Summary s = Summary.of(Arrays.copyOf(g.values, g.size));
    insert.add(
        cellId,
        g.job,
        g.metric,
        g.unit,
        s.n(),
        s.mean(),
        s.stddevPop(),
        s.stddevSamp(),
        s.min(),
        s.median(),
        s.max());
  }

  /** The values of one job and metric; the unit is the first one recorded. */
  private static final class Group {
    final String job;
    final String metric;
    String unit;
    double[] values = new double[16];
    int size;

    Group(String job, String metric) {
      this.job = job;
      this.metric = metric;
    }

    void add(double value) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = value;
    }
  }
}
