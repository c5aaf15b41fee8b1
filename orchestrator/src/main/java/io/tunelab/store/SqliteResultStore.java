package io.tunelab.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tunelab.TunelabException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@link ResultStore} in an SQLite file (WAL mode, foreign keys on). Every method runs in its
 * own transaction; the schema is migrated when the store is opened for writing.
 */
public final class SqliteResultStore implements ResultStore {
  private static final DateTimeFormatter ISO_UTC =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
  private static final Set<String> EXPERIMENT_STATUSES =
      Set.of("planned", "running", "finished", "failed", "interrupted");
  private static final Set<String> TRIAL_OUTCOMES = Set.of("ok", "failed", "skipped");
  private static final String EXPERIMENT_COLUMNS =
      "id, name, status, matrix_yaml, matrix_path, order_mode, seed, repeat, warmup";

  private final Path file;
  private final Connection db;
  private final Clock clock;
  private final ObjectMapper json = new ObjectMapper();

  private SqliteResultStore(Path file, Connection db, Clock clock) {
    this.file = file;
    this.db = db;
    this.clock = clock;
  }

  /** Creates or opens the database and applies pending migrations; exit code 2 if it cannot. */
  public static SqliteResultStore open(Path db) {
    return open(db, Clock.systemUTC());
  }

  /** As {@link #open(Path)}, with the clock that stamps created_at, started_at … */
  public static SqliteResultStore open(Path db, Clock clock) {
    Path file = db.toAbsolutePath().normalize();
    Database.checkWritable(file);
    if (!Files.exists(file)) {
      createComplete(file, clock);
    }
    return migrated(file, clock);
  }

  private static SqliteResultStore migrated(Path file, Clock clock) {
    SqliteResultStore store = new SqliteResultStore(file, Database.openWritable(file), clock);
    try {
      store.migrate();
    } catch (RuntimeException e) {
      store.closeQuietly();
      throw e;
    }
    return store;
  }

  /**
   * Builds a new database beside {@code file} and links it into place, so that whoever sees the
   * file (a {@code status} started at the same moment) sees the whole schema. If another process
   * created it first, or the file system has no hard links, the file is simply opened.
   */
  private static void createComplete(Path file, Clock clock) {
    Path temp =
        file.resolveSibling(
            "."
                + file.getFileName()
                + ".new-"
                + ProcessHandle.current().pid()
                + "-"
                + System.nanoTime());
    try {
      // Closing the only connection checkpoints the WAL: the file alone holds the schema.
      migrated(temp, clock).close();
      Files.createLink(file, temp);
    } catch (FileAlreadyExistsException | UnsupportedOperationException e) {
      // Someone else's database is in place, or links are not possible: open in place.
    } catch (IOException e) {
      throw Database.refused(file, e.getMessage());
    } finally {
      for (String suffix : List.of("", "-wal", "-shm", "-journal")) {
        try {
          Files.deleteIfExists(temp.resolveSibling(temp.getFileName() + suffix));
        } catch (IOException ignored) {
          // A stray hidden file is harmless; the database itself is in place.
        }
      }
    }
  }

  /**
   * Opens an existing database for reading only (query, report, status). Refuses a missing file,
   * and a file that is not a tunelab database, with exit code 2.
   */
  public static SqliteResultStore openReadOnly(Path db) {
    Path file = db.toAbsolutePath().normalize();
    SqliteResultStore store =
        new SqliteResultStore(file, Database.openReadOnly(file), Clock.systemUTC());
    try {
      store.checkSchema();
    } catch (RuntimeException e) {
      store.closeQuietly();
      throw e;
    }
    return store;
  }

  /**
   * Refuses, with exit code 2 and a message naming the path and the reason, a database path that
   * cannot be created or written. The runner calls it before touching any host.
   */
  public static void checkWritable(Path db) {
    Database.checkWritable(db);
  }

  /** The database file, absolute. */
  public Path file() {
    return file;
  }

  /** The open connection, for the query runner of this package. */
  Connection connection() {
    return db;
  }

  @Override
  public synchronized long createExperiment(NewExperiment e) {
    return transaction(
        "create experiment " + e.name(),
        c -> {
          // Batches of cells, params and knobs fill and flush independently; the foreign
          // keys are checked at commit instead (the pragma ends with the transaction).
          update(c, "PRAGMA defer_foreign_keys = ON");
          update(
              c,
              "INSERT INTO experiments (name, description, matrix_yaml, matrix_path,"
                  + " tool_version, order_mode, seed, repeat, warmup, created_at)"
                  + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
              e.name(),
              e.description(),
              e.matrixYaml(),
              e.matrixPath(),
              e.toolVersion(),
              e.order() == null ? null : e.order().toLowerCase(Locale.ROOT),
              e.seed(),
              e.repeat(),
              e.warmup(),
              now());
          long id = queryLong(c, "SELECT last_insert_rowid()");
          Map<Integer, Long> cellIds = insertCells(c, id, e.cells());
          try (Batch trials =
              new Batch(
                  c,
                  "INSERT INTO trials (experiment_id, cell_id, rep, seq, warmup)"
                      + " VALUES (?, ?, ?, ?, ?)")) {
            for (PlannedTrial t : e.trials()) {
              Long cellId = cellIds.get(t.cellOrdinal());
              if (cellId == null) {
                throw new IllegalArgumentException(
                    "trial " + t.seq() + " refers to no cell with ordinal " + t.cellOrdinal());
              }
              trials.add(id, cellId, t.rep(), t.seq(), t.warmup());
            }
          }
          return id;
        });
  }

  // Cell ids are assigned here rather than read back row by row: inside the write
  // transaction nobody else can insert, so max(id)+1… are free.
  private static Map<Integer, Long> insertCells(
      Connection c, long experimentId, List<PlannedCell> cells) throws SQLException {
    long next = queryLong(c, "SELECT coalesce(max(id), 0) + 1 FROM cells");
    Map<Integer, Long> ids = new HashMap<>();
    try (Batch cellRows =
            new Batch(
                c, "INSERT INTO cells (id, experiment_id, ordinal, label) VALUES (?, ?, ?, ?)");
        Batch params =
            new Batch(
                c, "INSERT INTO cell_params (cell_id, name, value, pos) VALUES (?, ?, ?, ?)");
        Batch knobs =
            new Batch(
                c, "INSERT INTO cell_knobs (cell_id, knob, value, pos) VALUES (?, ?, ?, ?)")) {
      for (PlannedCell cell : cells) {
        long cellId = next++;
        if (ids.put(cell.ordinal(), cellId) != null) {
          throw new IllegalArgumentException("two cells with ordinal " + cell.ordinal());
        }
        cellRows.add(cellId, experimentId, cell.ordinal(), cell.label());
        addEntries(params, cellId, cell.params());
        addEntries(knobs, cellId, cell.knobs());
      }
    }
    return ids;
  }

  private static void addEntries(Batch batch, long cellId, Map<String, String> entries)
      throws SQLException {
    if (entries == null) {
      return;
    }
    int pos = 1;
    for (Map.Entry<String, String> entry : entries.entrySet()) {
      batch.add(cellId, entry.getKey(), entry.getValue(), pos++);
    }
  }

  @Override
  public synchronized void recordHost(
      long experimentId, String role, String host, Map<String, String> facts) {
    String factsJson;
    try {
      factsJson = json.writeValueAsString(facts);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("facts of " + host + " are not serialisable", e);
    }
    transaction(
        "record host " + host,
        c -> {
          update(
              c,
              "INSERT OR REPLACE INTO hosts (experiment_id, role, host, kernel_release,"
                  + " boot_id, cpus, mem_kb, facts_json, recorded_at)"
                  + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
              experimentId,
              role,
              host,
              facts.get("kernel_release"),
              facts.get("boot_id"),
              wholeNumber(facts.get("cpus")),
              wholeNumber(facts.get("mem_kb")),
              factsJson,
              now());
          update(
              c, "DELETE FROM host_facts WHERE experiment_id = ? AND host = ?", experimentId, host);
          try (Batch rows =
              new Batch(
                  c,
                  "INSERT INTO host_facts (experiment_id, host, key, value) VALUES (?, ?, ?, ?)")) {
            for (Map.Entry<String, String> f : facts.entrySet()) {
              rows.add(experimentId, host, f.getKey(), f.getValue());
            }
          }
          return null;
        });
  }

  @Override
  public synchronized void recordVariables(long experimentId, Map<String, String> variables) {
    transaction(
        "record variables",
        c -> {
          update(c, "DELETE FROM variables WHERE experiment_id = ?", experimentId);
          try (Batch rows =
              new Batch(c, "INSERT INTO variables (experiment_id, name, value) VALUES (?, ?, ?)")) {
            for (Map.Entry<String, String> v : variables.entrySet()) {
              rows.add(experimentId, v.getKey(), v.getValue());
            }
          }
          return null;
        });
  }

  @Override
  public synchronized void setExperimentStatus(long experimentId, String status) {
    if (!EXPERIMENT_STATUSES.contains(status)) {
      throw new IllegalArgumentException("no experiment status " + status);
    }
    String now = now();
    int changed =
        transaction(
            "set status of experiment " + experimentId,
            c ->
                switch (status) {
                  case "running" ->
                      update(
                          c,
                          "UPDATE experiments SET status = ?, started_at = coalesce(started_at, ?),"
                              + " finished_at = NULL WHERE id = ?",
                          status,
                          now,
                          experimentId);
                  case "planned" ->
                      update(
                          c,
                          "UPDATE experiments SET status = ? WHERE id = ?",
                          status,
                          experimentId);
                  default ->
                      update(
                          c,
                          "UPDATE experiments SET status = ?, finished_at = ? WHERE id = ?",
                          status,
                          now,
                          experimentId);
                });
    if (changed == 0) {
      throw new IllegalArgumentException("no experiment " + experimentId);
    }
  }

  @Override
  public synchronized Optional<StoredExperiment> findExperiment(String idOrName) {
    return transaction(
        "find experiment " + idOrName,
        c -> {
          if (idOrName.matches("\\d{1,18}")) {
            Optional<StoredExperiment> byId =
                experiment(c, "WHERE id = ?", Long.parseLong(idOrName));
            if (byId.isPresent()) {
              return byId;
            }
          }
          return experiment(c, "WHERE name = ? ORDER BY id DESC LIMIT 1", idOrName);
        });
  }

  @Override
  public synchronized Optional<StoredExperiment> latest() {
    return transaction(
        "find the latest experiment", c -> experiment(c, "ORDER BY id DESC LIMIT 1"));
  }

  private static Optional<StoredExperiment> experiment(Connection c, String where, Object... args)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT " + EXPERIMENT_COLUMNS + " FROM experiments " + where)) {
      for (int i = 0; i < args.length; i++) {
        Batch.bind(ps, i + 1, args[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        return Optional.of(
            new StoredExperiment(
                rs.getLong(1),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                rs.getString(5),
                rs.getString(6),
                rs.getLong(7),
                rs.getInt(8),
                rs.getInt(9)));
      }
    }
  }

  @Override
  public synchronized List<ExperimentSummary> experiments() {
    return transaction(
        "list experiments",
        c -> {
          List<ExperimentSummary> all = new ArrayList<>();
          try (Statement st = c.createStatement();
              ResultSet rs =
                  st.executeQuery(
                      "SELECT experiment_id, name, status, created_at, started_at, finished_at,"
                          + " cells, ok, failed, skipped, pending, running"
                          + " FROM experiment_progress ORDER BY experiment_id")) {
            while (rs.next()) {
              all.add(
                  new ExperimentSummary(
                      rs.getLong(1),
                      rs.getString(2),
                      rs.getString(3),
                      rs.getString(4),
                      rs.getString(5),
                      rs.getString(6),
                      rs.getInt(7),
                      new TrialCounts(
                          rs.getInt(8),
                          rs.getInt(9),
                          rs.getInt(10),
                          rs.getInt(11),
                          rs.getInt(12))));
            }
          }
          return all;
        });
  }

  @Override
  public synchronized TrialCounts trialCounts(long experimentId) {
    return transaction(
        "count trials",
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT ok, failed, skipped, pending, running FROM experiment_progress"
                      + " WHERE experiment_id = ?")) {
            ps.setLong(1, experimentId);
            try (ResultSet rs = ps.executeQuery()) {
              if (!rs.next()) {
                throw new IllegalArgumentException("no experiment " + experimentId);
              }
              return new TrialCounts(
                  rs.getInt(1), rs.getInt(2), rs.getInt(3), rs.getInt(4), rs.getInt(5));
            }
          }
        });
  }

  @Override
  public synchronized Map<String, String> variables(long experimentId) {
    return transaction(
        "read variables",
        c -> {
          Map<String, String> vars = new LinkedHashMap<>();
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT name, value FROM variables WHERE experiment_id = ? ORDER BY rowid")) {
            ps.setLong(1, experimentId);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                vars.put(rs.getString(1), rs.getString(2));
              }
            }
          }
          return vars;
        });
  }

  @Override
  public synchronized List<PlannedCell> cells(long experimentId) {
    return transaction("read cells", c -> new CellReader(c).cells(experimentId));
  }

  @Override
  public synchronized List<TrialRef> unfinishedTrials(long experimentId) {
    return transaction(
        "read unfinished trials",
        c -> {
          List<TrialRef> refs = new ArrayList<>();
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT t.id, t.cell_id, c.ordinal, t.rep, t.seq, t.warmup"
                      + " FROM trials t JOIN cells c ON c.id = t.cell_id"
                      + " WHERE t.experiment_id = ? AND t.status IN ('pending', 'running')"
                      + " ORDER BY t.seq")) {
            ps.setLong(1, experimentId);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                refs.add(
                    new TrialRef(
                        rs.getLong(1),
                        rs.getLong(2),
                        rs.getInt(3),
                        rs.getInt(4),
                        rs.getInt(5),
                        rs.getInt(6) != 0));
              }
            }
          }
          return refs;
        });
  }

  @Override
  public synchronized void startTrial(long trialId) {
    transaction(
        "start trial " + trialId,
        c -> {
          long cellId = cellOf(c, trialId);
          update(
              c,
              "UPDATE trials SET status = 'running', started_at = ?, finished_at = NULL,"
                  + " error = NULL, workload_seconds = NULL WHERE id = ?",
              now(),
              trialId);
          // A trial run again must not leave its old samples in the statistics.
          update(c, "DELETE FROM samples WHERE trial_id = ?", trialId);
          update(c, "DELETE FROM settings WHERE trial_id = ?", trialId);
          CellStatistics.refresh(c, cellId);
          return null;
        });
  }

  @Override
  public synchronized void finishTrial(long trialId, TrialResult result) {
    if (!TRIAL_OUTCOMES.contains(result.status())) {
      throw new IllegalArgumentException("a trial cannot finish as " + result.status());
    }
    transaction(
        "finish trial " + trialId,
        c -> {
          long cellId = cellOf(c, trialId);
          String now = now();
          update(
              c,
              "UPDATE trials SET status = ?, started_at = coalesce(started_at, ?),"
                  + " finished_at = ?, error = ?, workload_seconds = ? WHERE id = ?",
              result.status(),
              now,
              now,
              result.error(),
              result.workloadSeconds(),
              trialId);
          update(c, "DELETE FROM samples WHERE trial_id = ?", trialId);
          update(c, "DELETE FROM settings WHERE trial_id = ?", trialId);
          try (Batch samples =
              new Batch(
                  c,
                  "INSERT INTO samples (trial_id, job, metric, value, unit)"
                      + " VALUES (?, ?, ?, ?, ?)")) {
            for (Sample s : listOrEmpty(result.samples())) {
              samples.add(trialId, s.job(), s.metric(), s.value(), s.unit());
            }
          }
          try (Batch settings =
              new Batch(
                  c,
                  "INSERT INTO settings (trial_id, role, host, knob, path, requested, effective,"
                      + " original, written) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (SettingRow s : listOrEmpty(result.settings())) {
              settings.add(
                  trialId,
                  s.role(),
                  s.host(),
                  s.knob(),
                  s.path(),
                  s.requested(),
                  s.effective(),
                  s.original(),
                  s.written());
            }
          }
          CellStatistics.refresh(c, cellId);
          return null;
        });
  }

  @Override
  public synchronized void close() {
    try {
      db.close();
    } catch (SQLException e) {
      throw failure("close", e);
    }
  }

  private void closeQuietly() {
    try {
      db.close();
    } catch (SQLException ignored) {
      // Already failing with a better message.
    }
  }

  private void migrate() {
    transaction(
        "migrate the schema",
        c -> {
          int current = Migrations.currentVersion(c);
          if (current < 0 && queryLong(c, "SELECT count(*) FROM sqlite_master") > 0) {
            throw new TunelabException(
                TunelabException.BAD_INPUT,
                "cannot use database " + file + ": it is an SQLite database but not tunelab's");
          }
          return Migrations.apply(c, now());
        });
  }

  private void checkSchema() {
    transaction(
        "read the schema version",
        c -> {
          int current = Migrations.currentVersion(c);
          if (current <= 0) {
            throw new TunelabException(
                TunelabException.BAD_INPUT, file + " is not a tunelab database");
          }
          int known = Migrations.latestVersion();
          if (current > known) {
            throw new Migrations.NewerSchemaException(current, known);
          }
          return null;
        });
  }

  private String now() {
    return ISO_UTC.format(clock.instant());
  }

  /** Work done inside one transaction. */
  interface Work<T> {
    T run(Connection c) throws SQLException;
  }

  /**
   * Runs {@code work} in one transaction (a consistent snapshot when reading); SQL errors become a
   * {@link TunelabException} saying what could not be done.
   */
  synchronized <T> T transaction(String what, Work<T> work) {
    try {
      db.setAutoCommit(false);
      try {
        T result = work.run(db);
        db.commit();
        return result;
      } catch (SQLException | RuntimeException e) {
        try {
          db.rollback();
        } catch (SQLException rollback) {
          e.addSuppressed(rollback);
        }
        throw e;
      } finally {
        // Back to autocommit: sqlite-jdbc begins the next transaction as soon as one
        // commits, which would keep the write lock between our calls.
        db.setAutoCommit(true);
      }
    } catch (Migrations.NewerSchemaException e) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          "database "
              + file
              + " has schema version "
              + e.found
              + ", newer than this tunelab knows ("
              + e.known
              + "): use a newer tunelab");
    } catch (SQLException e) {
      throw failure(what, e);
    }
  }

  private TunelabException failure(String what, SQLException e) {
    int code = e.getErrorCode() & 0xff;
    String reason = Database.reason(e);
    if (code == 5 || code == 6) {
      reason += " (another process holds the database)";
    } else if (code == 8) {
      reason += " (opened read-only)";
    }
    // BUSY, LOCKED, READONLY, IOERR, FULL: the environment refused, not a bug of ours.
    boolean environment = Set.of(5, 6, 8, 10, 13).contains(code);
    return new TunelabException(
        environment ? TunelabException.HOST_REFUSED : TunelabException.INTERNAL,
        "database " + file + ": cannot " + what + ": " + reason,
        e);
  }

  private static long cellOf(Connection c, long trialId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT cell_id FROM trials WHERE id = ?")) {
      ps.setLong(1, trialId);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new IllegalArgumentException("no trial " + trialId);
        }
        return rs.getLong(1);
      }
    }
  }

  private static int update(Connection c, String sql, Object... args) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        Batch.bind(ps, i + 1, args[i]);
      }
      return ps.executeUpdate();
    }
  }

  private static long queryLong(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static Long wholeNumber(String text) {
    if (text == null || !text.trim().matches("\\d{1,18}")) {
      return null;
    }
    return Long.parseLong(text.trim());
  }

  private static <T> List<T> listOrEmpty(List<T> list) {
    return list == null ? List.of() : list;
  }
}
