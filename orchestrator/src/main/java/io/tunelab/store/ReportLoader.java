package io.tunelab.store;

import io.tunelab.TunelabException;
import io.tunelab.report.ReportData;
import io.tunelab.report.ReportData.Cell;
import io.tunelab.report.ReportData.Host;
import io.tunelab.report.ReportData.Stat;
import io.tunelab.report.ReportData.Tally;
import io.tunelab.report.ReportData.Trial;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads what {@link io.tunelab.report.ClassicReport} shows of one experiment. */
public final class ReportLoader {
  /** The aggregate job of concurrent workloads, reported when present. */
  public static final String AGGREGATE_JOB = "all";

  private final Connection db;

  private ReportLoader(Connection db) {
    this.db = db;
  }

  /** The experiment's report data; an unknown id fails with exit code 2. */
  public static ReportData load(SqliteResultStore store, long experimentId) {
    return store.transaction(
        "read experiment " + experimentId, c -> new ReportLoader(c).load(experimentId));
  }

  private ReportData load(long id) throws SQLException {
    String name;
    String status;
    Tally tally;
    try (PreparedStatement ps =
        db.prepareStatement(
            "SELECT name, status, ok, failed, skipped, pending, running"
                + " FROM experiment_progress WHERE experiment_id = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new TunelabException(TunelabException.BAD_INPUT, "no experiment " + id);
        }
        name = rs.getString(1);
        status = rs.getString(2);
        tally = new Tally(rs.getInt(3), rs.getInt(4), rs.getInt(5), rs.getInt(6), rs.getInt(7));
      }
    }
    String job = job(id);
    List<CellReader.StoredCell> stored = new CellReader(db).stored(id);
    Map<Long, List<Trial>> trials = trials(id, job);
    Map<Long, Map<String, Stat>> stats = stats(id, job);
    Set<String> paramNames = new LinkedHashSet<>();
    List<Cell> cells = new ArrayList<>();
    for (CellReader.StoredCell s : stored) {
      paramNames.addAll(s.cell().params().keySet());
      cells.add(
          new Cell(
              s.cell().ordinal(),
              s.cell().label(),
              s.cell().params(),
              trials.getOrDefault(s.id(), List.of()),
              stats.getOrDefault(s.id(), Map.of())));
    }
    return new ReportData(id, name, status, hosts(id), tally, job, List.copyOf(paramNames), cells);
  }

  /** {@code all} when recorded, else the first job by name; null before any sample. */
  private String job(long id) throws SQLException {
    try (PreparedStatement ps =
        db.prepareStatement(
            "SELECT s.job FROM samples s JOIN trials t ON t.id = s.trial_id"
                + " WHERE t.experiment_id = ? GROUP BY s.job"
                + " ORDER BY s.job = '"
                + AGGREGATE_JOB
                + "' DESC, s.job LIMIT 1")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  private List<Host> hosts(long id) throws SQLException {
    List<Host> hosts = new ArrayList<>();
    try (PreparedStatement ps =
        db.prepareStatement(
            "SELECT role, host, kernel_release FROM hosts WHERE experiment_id = ? ORDER BY role")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          hosts.add(new Host(rs.getString(1), rs.getString(2), rs.getString(3)));
        }
      }
    }
    return hosts;
  }

  private Map<Long, List<Trial>> trials(long id, String job) throws SQLException {
    Map<Long, List<Trial>> byCell = new HashMap<>();
    try (PreparedStatement ps =
        db.prepareStatement(
            "SELECT t.cell_id, t.rep, t.warmup, t.status, t.error,"
                + " (SELECT s.value FROM samples s WHERE s.trial_id = t.id AND s.job = ?"
                + "   AND s.metric = 'seconds' ORDER BY s.rowid LIMIT 1)"
                + " FROM trials t WHERE t.experiment_id = ? ORDER BY t.cell_id, t.rep, t.seq")) {
      ps.setString(1, job);
      ps.setLong(2, id);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          double seconds = rs.getDouble(6);
          Double measured = rs.wasNull() ? null : seconds;
          byCell
              .computeIfAbsent(rs.getLong(1), c -> new ArrayList<>())
              .add(
                  new Trial(
                      rs.getInt(2), rs.getInt(3) != 0, rs.getString(4), measured, rs.getString(5)));
        }
      }
    }
    return byCell;
  }

  private Map<Long, Map<String, Stat>> stats(long id, String job) throws SQLException {
    Map<Long, Map<String, Stat>> byCell = new HashMap<>();
    try (PreparedStatement ps =
        db.prepareStatement(
            "SELECT st.cell_id, st.metric, st.unit, st.n, st.mean, st.stddev_pop"
                + " FROM cell_stats st JOIN cells c ON c.id = st.cell_id"
                + " WHERE c.experiment_id = ? AND st.job = ?")) {
      ps.setLong(1, id);
      ps.setString(2, job);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          byCell
              .computeIfAbsent(rs.getLong(1), c -> new LinkedHashMap<>())
              .put(
                  rs.getString(2),
                  new Stat(rs.getString(3), rs.getInt(4), rs.getDouble(5), rs.getDouble(6)));
        }
      }
    }
    return byCell;
  }
}
