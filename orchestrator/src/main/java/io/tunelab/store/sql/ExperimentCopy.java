package io.tunelab.store.sql;

import io.tunelab.store.ImportedExperiment;
import io.tunelab.store.ImportedExperiment.Outcome;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Copies one experiment, with every row it owns, from a tunelab SQLite file into another database
 * of either engine, inside the target's transaction. An experiment is known by its uuid: one the
 * target holds already is not copied again. The copy gets the target's next experiment id; its
 * cells, trials, events and boots move by one offset each, so they keep their order and the gaps
 * between them.
 */
public final class ExperimentCopy {
  /** The tables of an experiment, parents first, and how their rows find the experiment. */
  public static final List<Table> TABLES =
      List.of(
          new Table("hosts", Owner.EXPERIMENT, null),
          new Table("host_facts", Owner.EXPERIMENT, null),
          new Table("variables", Owner.EXPERIMENT, null),
          new Table("experiment_files", Owner.EXPERIMENT, null),
          new Table("testbed_hosts", Owner.EXPERIMENT, null),
          new Table("cells", Owner.EXPERIMENT, "id"),
          new Table("cell_params", Owner.CELL, null),
          new Table("cell_knobs", Owner.CELL, null),
          new Table("cell_stats", Owner.CELL, null),
          new Table("events", Owner.EXPERIMENT, "id"),
          new Table("boots", Owner.EXPERIMENT, "id"),
          new Table("trials", Owner.EXPERIMENT, "id"),
          new Table("samples", Owner.TRIAL, null),
          new Table("settings", Owner.TRIAL, null),
          new Table("monitor_samples", Owner.TRIAL, null),
          new Table("trial_processes", Owner.TRIAL, null),
          new Table("trial_outputs", Owner.TRIAL, null),
          new Table("trial_attempts", Owner.TRIAL, null),
          new Table("trial_hosts", Owner.TRIAL, null),
          new Table("trial_flags", Owner.TRIAL, null),
          new Table("search_rounds", Owner.EXPERIMENT, null));

  /**
   * The tables that belong to no experiment, or (the queue) to the database it is queued in, not to
   * the experiment.
   */
  public static final Set<String> NOT_COPIED =
      Set.of("experiments", "schema_version", "sqlite_sequence", "queue", "workers");

  /** Which rows of a table belong to one experiment. */
  public enum Owner {
    EXPERIMENT("experiment_id = ?"),
    CELL("cell_id IN (SELECT id FROM cells WHERE experiment_id = ?)"),
    TRIAL("trial_id IN (SELECT id FROM trials WHERE experiment_id = ?)");

    final String where;

    Owner(String where) {
      this.where = where;
    }

    /** The condition, with one parameter: the experiment's id. */
    public String where() {
      return where;
    }
  }

  /** One table, and its own id column when it has one that others refer to. */
  public record Table(String name, Owner owner, String idColumn) {}

  private ExperimentCopy() {}

  /**
   * The experiments of an SQLite file, with their uuids: the stored one, or for a file of an older
   * tunelab the one {@link ExperimentUuids#derived} gives.
   */
  public static List<ImportedExperiment> list(Connection c) throws SQLException {
    boolean hasUuid = columns(c, SqlDialect.SQLITE, "experiments").contains("uuid");
    List<ImportedExperiment> all = new ArrayList<>();
    try (PreparedStatement ps =
            c.prepareStatement(
                "SELECT e.id, e.name, e.status, e.created_at, e.matrix_yaml, "
                    + (hasUuid ? "e.uuid" : "NULL")
                    + ", (SELECT count(*) FROM trials t WHERE t.experiment_id = e.id)"
                    + " FROM experiments e ORDER BY e.id");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        long id = rs.getLong(1);
        String own = rs.getString(6);
        String key =
            own != null
                ? own
                : ExperimentUuids.derived(id, rs.getString(4), rs.getString(2), rs.getString(5));
        all.add(
            new ImportedExperiment(
                id, rs.getString(2), key, rs.getString(3), rs.getLong(7), null, 0, null));
      }
    }
    return all;
  }

  /**
   * Copies experiment {@code e} of the SQLite connection {@code from} into {@code into}, a
   * connection of {@code target} inside its write transaction; says what became of it. A running
   * experiment is left out.
   */
  public static ImportedExperiment copy(
      Connection from, Connection into, ImportTarget target, ImportedExperiment e)
      throws SQLException {
    target.lockForCopy(into);
    long there =
        queryLong(into, "SELECT coalesce(max(id), 0) FROM experiments WHERE uuid = ?", e.uuid());
    if (there > 0) {
      return outcome(e, Outcome.ALREADY_THERE, there, null);
    }
    if ("running".equals(e.status())) {
      return outcome(
          e,
          Outcome.LEFT_OUT,
          0,
          "it is running: import the file again once the run has ended (or was resumed"
              + " and ended)");
    }
    Tables tables = new Tables(from, into, target.dialect());
    Map<String, Long> shift = new HashMap<>();
    for (Table t : TABLES) {
      if (t.idColumn() != null) {
        shift.put(t.name(), offset(tables, t.name(), e.sourceId()));
      }
    }
    long id = copyExperiment(tables, e);
    shift.put("experiments", id - e.sourceId());
    for (Table t : TABLES) {
      if (!tables.theirs(t.name()).isEmpty()) {
        copyRows(tables, t, e.sourceId(), shift);
        if (t.idColumn() != null) {
          target.idsTaken(into, t.name());
        }
      }
    }
    return outcome(e, Outcome.ADDED, id, null);
  }

  private static ImportedExperiment outcome(
      ImportedExperiment e, Outcome outcome, long id, String reason) {
    return new ImportedExperiment(
        e.sourceId(), e.name(), e.uuid(), e.status(), e.trials(), outcome, id, reason);
  }

  /** Both connections and their columns, looked up once per table. */
  private static final class Tables {
    final Connection from;
    final Connection into;
    final SqlDialect dialect;
    private final Map<String, List<String>> theirs = new HashMap<>();
    private final Map<String, List<String>> shared = new HashMap<>();

    Tables(Connection from, Connection into, SqlDialect dialect) {
      this.from = from;
      this.into = into;
      this.dialect = dialect;
    }

    List<String> theirs(String table) throws SQLException {
      List<String> cols = theirs.get(table);
      if (cols == null) {
        cols = columns(from, SqlDialect.SQLITE, table);
        theirs.put(table, cols);
      }
      return cols;
    }

    /**
     * The target's columns the file has too (a file of an older tunelab has fewer), without the
     * idempotency keys: those belong to the writes of the database that made them.
     */
    List<String> shared(String table) throws SQLException {
      List<String> cols = shared.get(table);
      if (cols == null) {
        Set<String> file = new LinkedHashSet<>(theirs(table));
        cols = new ArrayList<>(columns(into, dialect, table));
        cols.retainAll(file);
        cols.remove("idem");
        shared.put(table, cols);
      }
      return new ArrayList<>(cols);
    }

    /**
     * Whether the target keeps {@code table}'s order in a column {@code pos} the file lacks (a file
     * of an older tunelab): the file's own order, its rowid, fills it.
     */
    boolean orderFromRowid(String table) throws SQLException {
      return !theirs(table).contains("pos") && columns(into, dialect, table).contains("pos");
    }
  }

  private static long copyExperiment(Tables tables, ImportedExperiment e) throws SQLException {
    List<String> cols = tables.shared("experiments");
    cols.remove("id");
    cols.remove("uuid");
    String list = String.join(", ", cols);
    try (PreparedStatement read =
            tables.from.prepareStatement("SELECT " + list + " FROM experiments WHERE id = ?");
        PreparedStatement write =
            tables.into.prepareStatement(
                "INSERT INTO experiments ("
                    + list
                    + ", uuid) VALUES ("
                    + "?, ".repeat(cols.size())
                    + "?)")) {
      read.setLong(1, e.sourceId());
      try (ResultSet rs = read.executeQuery()) {
        rs.next();
        for (int i = 1; i <= cols.size(); i++) {
          write.setObject(i, rs.getObject(i));
        }
      }
      write.setString(cols.size() + 1, e.uuid());
      write.executeUpdate();
    }
    // Found by its uuid, unique, rather than as a generated key: the SQLite connection does not
    // look for generated keys, which costs every statement it runs (SqliteConnections).
    try (PreparedStatement id =
        tables.into.prepareStatement("SELECT id FROM experiments WHERE uuid = ?")) {
      id.setString(1, e.uuid());
      try (ResultSet rs = id.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /**
   * Copies the rows of one table; its ids and its references to the experiment, its cells and its
   * trials move by the offsets of those tables, all taken before anything was copied.
   */
  private static void copyRows(Tables tables, Table t, long sourceId, Map<String, Long> offsets)
      throws SQLException {
    List<String> cols = tables.shared(t.name());
    Map<String, Long> shift = new HashMap<>();
    shift.put("experiment_id", offsets.get("experiments"));
    shift.put("cell_id", offsets.get("cells"));
    shift.put("trial_id", offsets.get("trials"));
    if (t.idColumn() != null) {
      shift.put(t.idColumn(), offsets.get(t.name()));
    }
    String list = String.join(", ", cols);
    String selected = list;
    if (tables.orderFromRowid(t.name())) {
      cols.add("pos");
      list += ", pos";
      selected += ", rowid";
    }
    try (PreparedStatement read =
            tables.from.prepareStatement(
                "SELECT "
                    + selected
                    + " FROM "
                    + t.name()
                    + " WHERE "
                    + t.owner().where
                    + " ORDER BY rowid");
        PreparedStatement write =
            tables.into.prepareStatement(
                "INSERT INTO "
                    + t.name()
                    + " ("
                    + list
                    + ") VALUES ("
                    + "?, ".repeat(cols.size() - 1)
                    + "?)")) {
      read.setLong(1, sourceId);
      int batch = 0;
      try (ResultSet rs = read.executeQuery()) {
        while (rs.next()) {
          for (int i = 1; i <= cols.size(); i++) {
            Object v = rs.getObject(i);
            Long by = shift.get(cols.get(i - 1));
            write.setObject(i, by != null && v != null ? ((Number) v).longValue() + by : v);
          }
          write.addBatch();
          if (++batch % 1000 == 0) {
            write.executeBatch();
          }
        }
      }
      write.executeBatch();
    }
  }

  /** What the ids of one table's rows of the experiment move by: its first lands after the last. */
  private static long offset(Tables tables, String table, long sourceId) throws SQLException {
    if (tables.theirs(table).isEmpty()) {
      return 0;
    }
    long first =
        queryLong(
            tables.from,
            "SELECT coalesce(min(id), 0) FROM " + table + " WHERE experiment_id = ?",
            sourceId);
    long last = queryLong(tables.into, "SELECT coalesce(max(id), 0) FROM " + table);
    return last + 1 - first;
  }

  /** The columns of {@code table}, in order; none when the database has no such table. */
  public static List<String> columns(Connection c, SqlDialect dialect, String table)
      throws SQLException {
    List<String> cols = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(dialect.columnsQuery())) {
      ps.setString(1, table);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          cols.add(rs.getString(1));
        }
      }
    }
    return cols;
  }

  private static long queryLong(Connection c, String sql, Object... args) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setObject(i + 1, args[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}
