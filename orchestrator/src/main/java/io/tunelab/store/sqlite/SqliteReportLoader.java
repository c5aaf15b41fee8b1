package io.tunelab.store.sqlite;

import io.tunelab.TunelabException;
import io.tunelab.knob.Knob;
import io.tunelab.knob.KnobCatalogue;
import io.tunelab.knob.KnobValues;
import io.tunelab.matrix.RepeatRule;
import io.tunelab.matrix.WorkloadSummary;
import io.tunelab.stats.Summary;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.ReportData;
import io.tunelab.store.ReportData.Boot;
import io.tunelab.store.ReportData.Cell;
import io.tunelab.store.ReportData.Flag;
import io.tunelab.store.ReportData.Host;
import io.tunelab.store.ReportData.Stat;
import io.tunelab.store.ReportData.Trial;
import io.tunelab.store.ReportSelection;
import io.tunelab.store.TrialCounts;
import io.tunelab.store.TrialStatus;
import io.tunelab.store.sql.SqlDialect;
import io.tunelab.workload.Sample;
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
import java.util.TreeMap;

/**
 * Reads what reports and comparisons show of one experiment: cells, every trial with the values of
 * the metrics asked for, and the statistics of one job. A handful of queries whatever the size.
 */
final class SqliteReportLoader {
  private final Connection db;
  private final SqlDialect dialect;

  private SqliteReportLoader(Connection db, SqlDialect dialect) {
    this.db = db;
    this.dialect = dialect;
  }

  /**
   * The experiment's report data, one per job of the selection in the order asked, read in one
   * transaction. An unknown id, job or metric fails with exit code 2 and a message listing what
   * there is.
   */
  static List<ReportData> load(Transactions tx, long experimentId, ReportSelection selection) {
    return tx.transaction(
        "read experiment " + experimentId,
        c -> new SqliteReportLoader(c, tx.dialect()).load(experimentId, selection));
  }

  private List<ReportData> load(long id, ReportSelection selection) throws SQLException {
    String name;
    ExperimentStatus status;
    TrialCounts counts;
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
        status = ExperimentStatus.of(rs.getString(2));
        counts = SqliteExperiments.counts(rs, 3);
      }
    }
    Map<String, String> overrides;
    ReportData.About about;
    try (PreparedStatement ps =
        db.prepareStatement(
            "SELECT "
                + SqliteExperiments.overridesColumn(db, dialect)
                + ", started_at, tool_version, description, matrix_yaml, "
                + "coalesce("
                + SqliteExperiments.columnOrNull(db, dialect, "on_flag")
                + ", 'keep'), order_mode"
                + " FROM experiments WHERE id = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        boolean found = rs.next();
        overrides = SqliteExperiments.overrides(found ? rs.getString(1) : null);
        about =
            found
                ? new ReportData.About(
                    rs.getString(2),
                    rs.getString(3),
                    rs.getString(4),
                    WorkloadSummary.of(rs.getString(5)),
                    rs.getString(6),
                    readbacks(id),
                    rs.getString(7))
                : ReportData.About.UNKNOWN;
      }
    }
    Map<String, Map<String, String>> unitsByJob = unitsByJob(id);
    RepeatRule rule = repeatRule(id, unitsByJob.get(Sample.AGGREGATE_JOB));
    String experiment = "experiment " + id + " (" + name + ")";
    List<ReportSelection.Pick> picks = selection.picks(experiment, unitsByJob);

    List<SqliteCellReader.StoredCell> stored = new SqliteCellReader(db).stored(id);
    Set<String> paramNames = new LinkedHashSet<>();
    for (SqliteCellReader.StoredCell s : stored) {
      paramNames.addAll(s.cell().params().keySet());
    }
    List<Host> hosts = hosts(id);
    Map<Long, List<Boot>> boots = boots(id);
    ReportData.Repetitions repetitions = null;
    if (rule != null) {
      Map<Long, Map<String, Stat>> all = stats(id, Sample.AGGREGATE_JOB);
      List<ReportData.CellRepetitions> reached = new ArrayList<>();
      for (SqliteCellReader.StoredCell s : stored) {
        Stat stat = all.getOrDefault(s.id(), Map.of()).get(rule.metric());
        if (stat != null) {
          reached.add(
              new ReportData.CellRepetitions(
                  s.cell().ordinal(),
                  s.cell().label(),
                  stat.n(),
                  RepeatRule.relativeHalfWidth(stat.summary())));
        }
      }
      repetitions = new ReportData.Repetitions(rule, rule.metric(), reached);
    }
    Map<Long, List<Flag>> flags = flags(id, hosts);
    boolean exclude = about.onFlag().equals("exclude");
    List<ReportData> loaded = new ArrayList<>(picks.size());
    for (ReportSelection.Pick pick : picks) {
      String job = pick.job();
      Map<Long, List<Trial>> trials = trials(id, job, pick.loaded(), boots, flags, exclude);
      Map<Long, Map<String, Stat>> stats = stats(id, job);
      List<Cell> cells = new ArrayList<>(stored.size());
      for (SqliteCellReader.StoredCell s : stored) {
        cells.add(
            new Cell(
                s.cell().ordinal(),
                s.cell().label(),
                s.cell().params(),
                trials.getOrDefault(s.id(), List.of()),
                stats.getOrDefault(s.id(), Map.of())));
      }
      loaded.add(
          new ReportData(
              id,
              name,
              status,
              hosts,
              counts,
              job,
              List.copyOf(unitsByJob.keySet()),
              job == null ? Map.of() : unitsByJob.get(job),
              List.copyOf(paramNames),
              cells,
              pick.shown(),
              overrides,
              about,
              repetitions));
    }
    return loaded;
  }

  /**
   * The knobs of ok trials that read back other than written, beyond the roundings the kernel is
   * known to do ({@link KnobValues#agreement}): one per role, knob and pair of values.
   */
  private List<ReportData.Readback> readbacks(long id) throws SQLException {
    List<ReportData.Readback> found = new ArrayList<>();
    try (PreparedStatement ps =
        db.prepareStatement(
            "SELECT s.role, s.host, s.knob, s.requested, s.effective, count(DISTINCT t.id)"
                + " FROM settings s JOIN trials t ON t.id = s.trial_id"
                + " JOIN cells c ON c.id = t.cell_id"
                + " WHERE c.experiment_id = ? AND t.status = 'ok' AND s.requested IS NOT NULL"
                + " AND s.requested <> 'default' AND s.effective IS DISTINCT FROM s.requested"
                + " GROUP BY s.role, s.host, s.knob, s.requested, s.effective"
                + " ORDER BY s.role, s.knob, min(t.seq)")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String knob = rs.getString(3);
          String requested = rs.getString(4);
          String effective = rs.getString(5);
          Knob k;
          try {
            k = KnobCatalogue.parse(knob);
          } catch (RuntimeException notInCatalogue) {
            k = null;
          }
          boolean held =
              effective != null
                  && k != null
                  && KnobValues.agreement(k, requested, effective)
                      != KnobValues.Agreement.DIFFERENT;
          if (!held) {
            found.add(
                new ReportData.Readback(
                    rs.getString(1), rs.getString(2), knob, requested, effective, rs.getInt(6)));
          }
        }
      }
    }
    return found;
  }

  /**
   * The experiment's adaptive repeat rule with its metric resolved against what job {@code all}
   * recorded ({@code units}, null when nothing was); null for a fixed count.
   */
  private RepeatRule repeatRule(long id, Map<String, String> units) throws SQLException {
    try (PreparedStatement ps =
        db.prepareStatement(
            "SELECT repeat, "
                + SqliteExperiments.columnOrNull(db, dialect, "repeat_min")
                + ", "
                + SqliteExperiments.columnOrNull(db, dialect, "repeat_target")
                + ", "
                + SqliteExperiments.columnOrNull(db, dialect, "repeat_metric")
                + ", "
                + SqliteExperiments.columnOrNull(db, dialect, "repeat_compare")
                + " FROM experiments WHERE id = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return null;
        }
        double target = rs.getDouble(3);
        if (rs.wasNull() || target <= 0) {
          return null;
        }
        String metric = rs.getString(4);
        if (metric == null) {
          metric = units != null && !units.containsKey("mib_per_s") ? "seconds" : "mib_per_s";
        }
        return new RepeatRule(rs.getInt(2), rs.getInt(1), target, metric, rs.getString(5));
      }
    }
  }

  /** Every job with statistics and the units of its metrics, both sorted by name. */
  private Map<String, Map<String, String>> unitsByJob(long id) throws SQLException {
    Map<String, Map<String, String>> byJob = new TreeMap<>();
    try (PreparedStatement ps =
        db.prepareStatement(
            "SELECT st.job, st.metric, min(st.unit) FROM cell_stats st"
                + " JOIN cells c ON c.id = st.cell_id WHERE c.experiment_id = ?"
                + " GROUP BY st.job, st.metric")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          byJob
              .computeIfAbsent(rs.getString(1), j -> new TreeMap<>())
              .put(rs.getString(2), rs.getString(3));
        }
      }
    }
    return byJob;
  }

  private List<Host> hosts(long id) throws SQLException {
    List<Host> hosts = new ArrayList<>();
    try (PreparedStatement ps =
        db.prepareStatement(
            "SELECT role, host, kernel_release, cpus, mem_kb,"
                + " (SELECT value FROM host_facts f WHERE f.experiment_id = h.experiment_id"
                + " AND f.host = h.host AND f.key = 'cpu_model'),"
                + " (SELECT value FROM host_facts f WHERE f.experiment_id = h.experiment_id"
                + " AND f.host = h.host AND f.key = 'cpufreq_governor')"
                + " FROM hosts h WHERE experiment_id = ? ORDER BY role")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          int cpus = rs.getInt(4);
          Integer cpuCount = rs.wasNull() ? null : cpus;
          long mem = rs.getLong(5);
          Long memKb = rs.wasNull() ? null : mem;
          hosts.add(
              new Host(
                  rs.getString(1),
                  rs.getString(2),
                  rs.getString(3),
                  cpuCount,
                  memKb,
                  rs.getString(6),
                  rs.getString(7)));
        }
      }
    }
    return hosts;
  }

  // One row per trial, each loaded metric a column found through the samples index: 100,000
  // rows for the largest experiments tunelab is tested with, read in one pass.
  private Map<Long, List<Trial>> trials(
      long id,
      String job,
      List<String> metrics,
      Map<Long, List<Boot>> boots,
      Map<Long, List<Flag>> flags,
      boolean exclude)
      throws SQLException {
    Map<Long, List<Trial>> byCell = new HashMap<>();
    String samplesOrder = SqliteExperiments.orderColumn(db, dialect, "samples", "s");
    StringBuilder sql =
        new StringBuilder("SELECT t.cell_id, t.rep, t.warmup, t.status, t.error, t.id");
    for (int i = 0; i < metrics.size(); i++) {
      sql.append(", (SELECT s.value FROM samples s WHERE s.trial_id = t.id AND s.job = ?")
          .append(" AND s.metric = ? AND s.value IS NOT NULL ORDER BY ")
          .append(samplesOrder)
          .append(" LIMIT 1)");
    }
    sql.append(" FROM trials t WHERE t.experiment_id = ? ORDER BY t.cell_id, t.rep, t.seq, t.id");
    try (PreparedStatement ps = db.prepareStatement(sql.toString())) {
      int i = 1;
      for (String m : metrics) {
        ps.setString(i++, job == null ? "" : job);
        ps.setString(i++, m);
      }
      ps.setLong(i, id);
      try (ResultSet rs = ps.executeQuery()) {
        long cell = -1;
        List<Trial> trials = null;
        while (rs.next()) {
          if (rs.getLong(1) != cell) {
            cell = rs.getLong(1);
            trials = byCell.computeIfAbsent(cell, c -> new ArrayList<>());
          }
          Map<String, Double> values = new HashMap<>(4);
          for (int m = 0; m < metrics.size(); m++) {
            double v = rs.getDouble(7 + m);
            if (!rs.wasNull()) {
              values.put(metrics.get(m), v);
            }
          }
          List<Flag> flagged = flags.getOrDefault(rs.getLong(6), List.of());
          trials.add(
              new Trial(
                  rs.getInt(2),
                  rs.getInt(3) != 0,
                  TrialStatus.of(rs.getString(4)),
                  rs.getString(5),
                  values,
                  boots.getOrDefault(rs.getLong(6), List.of()),
                  flagged,
                  exclude && !flagged.isEmpty()));
        }
      }
    }
    return byCell;
  }

  /**
   * What each host ran per trial, by trial id and host name; nothing in a database a read-only
   * command did not migrate to schema version 6.
   */
  private Map<Long, List<Boot>> boots(long id) throws SQLException {
    Map<Long, List<Boot>> byTrial = new HashMap<>();
    if (!hasTable("trial_hosts")) {
      return byTrial;
    }
    try (PreparedStatement ps =
        db.prepareStatement(
            "SELECT h.trial_id, h.host, h.kernel_release, h.boot_id, h.cmdline"
                + " FROM trial_hosts h JOIN trials t ON t.id = h.trial_id"
                + " WHERE t.experiment_id = ? ORDER BY h.trial_id, h.host")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          byTrial
              .computeIfAbsent(rs.getLong(1), t -> new ArrayList<>(2))
              .add(new Boot(rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5)));
        }
      }
    }
    return byTrial;
  }

  /**
   * The health flags of every trial, by trial id, each flag once per place; nothing in a database a
   * read-only command did not migrate to schema version 7.
   */
  private Map<Long, List<Flag>> flags(long id, List<Host> hosts) throws SQLException {
    Map<Long, List<Flag>> byTrial = new HashMap<>();
    if (!hasTable("trial_flags")) {
      return byTrial;
    }
    Map<String, String> roles = new HashMap<>();
    for (Host h : hosts) {
      roles.merge(h.host(), h.role(), (a, b) -> a + ", " + b);
    }
    try (PreparedStatement ps =
        db.prepareStatement(
            "SELECT f.trial_id, f.host, f.flag FROM trial_flags f JOIN trials t"
                + " ON t.id = f.trial_id WHERE t.experiment_id = ? ORDER BY f.trial_id, "
                + SqliteExperiments.orderColumn(db, dialect, "trial_flags", "f"))) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          Flag flag =
              new Flag(rs.getString(3), roles.getOrDefault(rs.getString(2), rs.getString(2)));
          List<Flag> of = byTrial.computeIfAbsent(rs.getLong(1), t -> new ArrayList<>(1));
          if (!of.contains(flag)) {
            of.add(flag);
          }
        }
      }
    }
    return byTrial;
  }

  private boolean hasTable(String name) throws SQLException {
    try (PreparedStatement ps = db.prepareStatement(dialect.tableExistsQuery())) {
      ps.setString(1, name);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() && rs.getInt(1) > 0;
      }
    }
  }

  private Map<Long, Map<String, Stat>> stats(long id, String job) throws SQLException {
    Map<Long, Map<String, Stat>> byCell = new HashMap<>();
    try (PreparedStatement ps =
        db.prepareStatement(
            "SELECT st.cell_id, st.metric, st.unit, st.n, st.mean, st.stddev_pop, st.stddev_samp,"
                + " st.min, st.median, st.max"
                + " FROM cell_stats st JOIN cells c ON c.id = st.cell_id"
                + " WHERE c.experiment_id = ? AND st.job = ?")) {
      ps.setLong(1, id);
      ps.setString(2, job == null ? "" : job);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          double samp = rs.getDouble(7);
          if (rs.wasNull()) {
            samp = Double.NaN;
          }
          Summary summary =
              new Summary(
                  rs.getInt(4),
                  rs.getDouble(5),
                  rs.getDouble(6),
                  samp,
                  rs.getDouble(8),
                  rs.getDouble(9),
                  rs.getDouble(10));
          byCell
              .computeIfAbsent(rs.getLong(1), c -> new LinkedHashMap<>())
              .put(rs.getString(2), new Stat(rs.getString(3), summary));
        }
      }
    }
    return byCell;
  }
}
