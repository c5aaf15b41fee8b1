package io.tunelab.store.sqlite;

import io.tunelab.store.ImportedExperiment;
import io.tunelab.store.ImportedExperiment.Outcome;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Copies the experiments of one tunelab SQLite file into another database, each in one transaction.
 * An experiment is known by its uuid: one the target holds already is not copied again. The copy
 * gets the target's next experiment id; its cells, trials, events and boots move by one offset
 * each, so they keep their order and the gaps between them.
 */
public final class SqliteImport {
  /** The tables of an experiment, parents first, and how their rows find the experiment. */
  static final List<Table> TABLES =
      List.of(
          new Table("hosts", Owner.EXPERIMENT, null),
          new Table("host_facts", Owner.EXPERIMENT, null),
          new Table("variables", Owner.EXPERIMENT, null),
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
          new Table("trial_flags", Owner.TRIAL, null));

  /** The tables that belong to no experiment. */
  static final Set<String> NOT_COPIED = Set.of("experiments", "schema_version", "sqlite_sequence");

  /** Which rows of a table belong to one experiment. */
  enum Owner {
    EXPERIMENT("experiment_id = ?"),
    CELL("cell_id IN (SELECT id FROM cells WHERE experiment_id = ?)"),
    TRIAL("trial_id IN (SELECT id FROM trials WHERE experiment_id = ?)");

    final String where;

    Owner(String where) {
      this.where = where;
    }
  }

  /** One table, and its own id column when it has one that others refer to. */
  record Table(String name, Owner owner, String idColumn) {}

  private SqliteImport() {}

  /**
   * Copies every experiment of {@code source} (opened read-only, any schema version this tunelab
   * reads) into {@code target} (created or migrated); a running experiment is left out.
   */
  public static List<ImportedExperiment> importFile(Path source, Path target, Clock clock) {
    try (SqliteTransactions from = SqliteSchema.openReadOnly(source);
        SqliteTransactions into = SqliteSchema.openWritable(target, clock)) {
      List<ImportedExperiment> done = new ArrayList<>();
      for (ImportedExperiment e : from.transaction("list the experiments", SqliteImport::list)) {
        String what = "import experiment " + e.sourceId() + " of " + source;
        // The file is read in one snapshot; a retried copy starts its transaction again.
        done.add(from.transaction(what, s -> into.transaction(what, c -> copy(s, c, e))));
      }
      return done;
    }
  }

  private static List<ImportedExperiment> list(Connection c) throws SQLException {
    String uuid = SqliteExperiments.columnOrNull(c, "uuid");
    List<ImportedExperiment> all = new ArrayList<>();
    try (PreparedStatement ps =
            c.prepareStatement(
                "SELECT e.id, e.name, e.status, e.created_at, e.matrix_yaml, "
                    + uuid
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

  private static ImportedExperiment copy(Connection from, Connection into, ImportedExperiment e)
      throws SQLException {
    long there =
        SqliteStatements.queryLong(
            into, "SELECT coalesce(max(id), 0) FROM experiments WHERE uuid = ?", (Object) e.uuid());
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
    Map<String, Long> shift = new HashMap<>();
    for (Table t : TABLES) {
      if (t.idColumn() != null) {
        shift.put(t.name(), offset(from, into, t.name(), e.sourceId()));
      }
    }
    long id = copyExperiment(from, into, e);
    shift.put("experiments", id - e.sourceId());
    for (Table t : TABLES) {
      if (!columns(from, t.name()).isEmpty()) {
        copyRows(from, into, t, e.sourceId(), shift);
      }
    }
    return outcome(e, Outcome.ADDED, id, null);
  }

  private static ImportedExperiment outcome(
      ImportedExperiment e, Outcome outcome, long id, String reason) {
    return new ImportedExperiment(
        e.sourceId(), e.name(), e.uuid(), e.status(), e.trials(), outcome, id, reason);
  }

  private static long copyExperiment(Connection from, Connection into, ImportedExperiment e)
      throws SQLException {
    List<String> cols = shared(from, into, "experiments");
    cols.remove("id");
    cols.remove("uuid");
    String list = String.join(", ", cols);
    try (PreparedStatement read =
            from.prepareStatement("SELECT " + list + " FROM experiments WHERE id = ?");
        PreparedStatement write =
            into.prepareStatement(
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
    return SqliteStatements.queryLong(into, "SELECT last_insert_rowid()");
  }

  /**
   * Copies the rows of one table; its ids and its references to the experiment, its cells and its
   * trials move by the offsets of those tables, all taken before anything was copied.
   */
  private static void copyRows(
      Connection from, Connection into, Table t, long sourceId, Map<String, Long> offsets)
      throws SQLException {
    List<String> cols = shared(from, into, t.name());
    Map<String, Long> shift = new HashMap<>();
    shift.put("experiment_id", offsets.get("experiments"));
    shift.put("cell_id", offsets.get("cells"));
    shift.put("trial_id", offsets.get("trials"));
    if (t.idColumn() != null) {
      shift.put(t.idColumn(), offsets.get(t.name()));
    }
    String list = String.join(", ", cols);
    try (PreparedStatement read =
            from.prepareStatement(
                "SELECT "
                    + list
                    + " FROM "
                    + t.name()
                    + " WHERE "
                    + t.owner().where
                    + " ORDER BY rowid");
        PreparedStatement write =
            into.prepareStatement(
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
  private static long offset(Connection from, Connection into, String table, long sourceId)
      throws SQLException {
    if (columns(from, table).isEmpty()) {
      return 0;
    }
    long first =
        SqliteStatements.queryLong(
            from,
            "SELECT coalesce(min(id), 0) FROM " + table + " WHERE experiment_id = ?",
            sourceId);
    long last = SqliteStatements.queryLong(into, "SELECT coalesce(max(id), 0) FROM " + table);
    return last + 1 - first;
  }

  private static List<String> shared(Connection from, Connection into, String table)
      throws SQLException {
    Set<String> theirs = new LinkedHashSet<>(columns(from, table));
    List<String> ours = new ArrayList<>(columns(into, table));
    ours.retainAll(theirs);
    return ours;
  }

  /** The columns of {@code table}, in order; none when the database has no such table. */
  static List<String> columns(Connection c, String table) throws SQLException {
    List<String> cols = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement("SELECT name FROM pragma_table_info(?)")) {
      ps.setString(1, table);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          cols.add(rs.getString(1));
        }
      }
    }
    return cols;
  }
}
