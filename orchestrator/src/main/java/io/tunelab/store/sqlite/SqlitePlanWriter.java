package io.tunelab.store.sqlite;

import static io.tunelab.store.sqlite.SqliteStatements.queryLong;
import static io.tunelab.store.sqlite.SqliteStatements.update;

import io.tunelab.Timestamps;
import io.tunelab.matrix.OnFlag;
import io.tunelab.plan.Cell;
import io.tunelab.plan.ExperimentPlan;
import io.tunelab.plan.Trial;
import io.tunelab.store.OpenCell;
import io.tunelab.store.ResultStore;
import io.tunelab.store.SearchState;
import io.tunelab.store.StoredPlan;
import io.tunelab.store.TestbedHost;
import io.tunelab.store.TrialRef;
import io.tunelab.store.sql.ExperimentUuids;
import io.tunelab.store.sql.SqlDialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes what is known before the first trial: the experiment with its cells and pending trials,
 * then each host's facts and the variables that setup steps captured.
 */
final class SqlitePlanWriter {
  /** The {@code variables} row naming the open cell ({@link ResultStore#recordOpenCell}). */
  static final String OPEN_CELL = "@cell";

  /** Cells per INSERT; trials go five times as many at once. */
  private static final int CHUNK = 10_000;

  /** SQLite's page cache while a plan is stored, in KiB as a negative number. */
  private static final int PLAN_CACHE_SIZE = -8_192;

  private final Transactions tx;
  private final SqlDialect dialect;
  private final Timestamps time;
  private final String testbed;

  SqlitePlanWriter(Transactions tx, Timestamps time, String testbed) {
    this.tx = tx;
    this.dialect = tx.dialect();
    this.time = time;
    this.testbed = testbed;
  }

  /**
   * See {@link ResultStore#storePlan}; the trials are null when SQLite did not give them the ids
   * that follow the table's last one, in run order (it always does, but the list is not guessed).
   */
  StoredPlan createExperiment(
      ExperimentPlan e, String toolVersion, JdbcResultStore.AfterPlan after) {
    // Foreign keys looked up row by row took a fifth of the time of a large plan: SqlitePlanChecks
    // checks the new rows' keys at once, by the range of the cell ids.
    return tx.transactionCheckingKeysItself(
        "create experiment " + e.name(),
        c -> {
          if (!dialect.tunesBulkInserts()) {
            return insertPlan(c, e, toolVersion, after);
          }
          // The trials' index by cell may fill in shuffled order: with SQLite's default 2 MiB
          // of cache a large plan spills and re-reads pages. 8 MiB held them as fast as 16 did
          // for 100,000 cells (11 MiB less peak memory); given back when the plan is stored.
          long cacheSize = queryLong(c, "PRAGMA cache_size");
          update(c, "PRAGMA cache_size = " + PLAN_CACHE_SIZE);
          try {
            return insertPlan(c, e, toolVersion, after);
          } finally {
            update(c, "PRAGMA cache_size = " + cacheSize);
          }
        });
  }

  /**
   * See {@link io.tunelab.store.RunStore#appendTrials}: a retried transaction whose first commit
   * went through finds its trials by cell and repetition and adds none again.
   */
  List<TrialRef> appendTrials(long experimentId, List<Cell> cells, List<Trial> trials) {
    return tx.transaction(
        "add trials to experiment " + experimentId,
        c -> {
          Map<Integer, Long> cellIds = storedCells(c, experimentId);
          List<Cell> fresh = cells.stream().filter(k -> !cellIds.containsKey(k.ordinal())).toList();
          if (!fresh.isEmpty()) {
            CellIds added = insertCells(c, experimentId, fresh);
            fresh.forEach(k -> cellIds.put(k.ordinal(), added.of(k.ordinal(), 0)));
          }
          long seq =
              queryLong(
                  c,
                  "SELECT coalesce(max(seq), 0) FROM trials WHERE experiment_id = ?",
                  experimentId);
          List<TrialRef> refs = new ArrayList<>();
          for (Trial t : trials) {
            Long cellId = cellIds.get(t.cellOrdinal());
            if (cellId == null) {
              throw new IllegalArgumentException("no cell with ordinal " + t.cellOrdinal());
            }
            refs.add(appendTrial(c, experimentId, cellId, t, seq));
            seq = Math.max(seq, refs.get(refs.size() - 1).seq());
          }
          return refs;
        });
  }

  /** See {@link io.tunelab.store.RunStore#recordSearchRound}. */
  void recordSearchRound(long experimentId, int round, List<SearchState> states) {
    tx.transaction(
        "record search round " + round + " of experiment " + experimentId,
        c -> {
          Map<Integer, Long> cellIds = storedCells(c, experimentId);
          for (SearchState s : states) {
            Long cellId = cellIds.get(s.cellOrdinal());
            if (cellId != null) {
              update(
                  c,
                  "INSERT INTO search_rounds (experiment_id, round, cell_id, state, reason)"
                      + " VALUES (?, ?, ?, ?, ?) ON CONFLICT (experiment_id, round, cell_id)"
                      + " DO UPDATE SET state = excluded.state, reason = excluded.reason",
                  experimentId,
                  round,
                  cellId,
                  s.state(),
                  s.reason());
            }
          }
          return null;
        });
  }

  private static Map<Integer, Long> storedCells(Connection c, long experimentId)
      throws SQLException {
    Map<Integer, Long> ids = new HashMap<>();
    try (PreparedStatement ps =
        c.prepareStatement("SELECT ordinal, id FROM cells WHERE experiment_id = ?")) {
      ps.setLong(1, experimentId);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          ids.put(rs.getInt(1), rs.getLong(2));
        }
      }
    }
    return ids;
  }

  private static TrialRef appendTrial(
      Connection c, long experimentId, long cellId, Trial t, long lastSeq) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT id, seq FROM trials WHERE cell_id = ? AND rep = ? AND warmup = ?")) {
      ps.setLong(1, cellId);
      ps.setInt(2, t.rep());
      ps.setInt(3, t.warmup() ? 1 : 0);
      try (ResultSet rs = ps.executeQuery()) {
        if (rs.next()) {
          return new TrialRef(
              rs.getLong(1), cellId, t.cellOrdinal(), t.rep(), rs.getInt(2), t.warmup());
        }
      }
    }
    int seq = Math.toIntExact(lastSeq + 1);
    long id =
        queryLong(
            c,
            "INSERT INTO trials (experiment_id, cell_id, rep, seq, warmup) VALUES (?, ?, ?, ?, ?)"
                + " RETURNING id",
            experimentId,
            cellId,
            t.rep(),
            seq,
            t.warmup() ? 1 : 0);
    return new TrialRef(id, cellId, t.cellOrdinal(), t.rep(), seq, t.warmup());
  }

  private StoredPlan insertPlan(
      Connection c, ExperimentPlan e, String toolVersion, JdbcResultStore.AfterPlan after)
      throws SQLException {
    long id =
        queryLong(
            c,
            "INSERT INTO experiments (name, description, matrix_yaml, matrix_path,"
                + " tool_version, order_mode, seed, repeat, warmup, created_at, overrides,"
                + " repeat_min, repeat_target, repeat_metric, on_flag, uuid, testbed,"
                + " repeat_compare)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            e.name(),
            e.description(),
            e.matrixYaml(),
            e.matrixPath(),
            toolVersion,
            e.order() == null ? null : e.orderName(),
            e.seed(),
            e.repeat(),
            e.warmup(),
            time.now(),
            overridesJson(e.overrides()),
            e.repeatRule().min(),
            e.repeatRule().adaptive() ? e.repeatRule().target() : null,
            e.repeatRule().metric(),
            e.onFlag() == null ? OnFlag.KEEP.text() : e.onFlag().text(),
            ExperimentUuids.fresh(),
            testbed,
            e.repeatRule().compare());
    Map<String, String> jobFiles = e.workload() == null ? Map.of() : e.workload().jobFiles();
    for (Map.Entry<String, String> file : jobFiles.entrySet()) {
      update(
          c,
          "INSERT INTO experiment_files (experiment_id, path, kind, content) VALUES (?, ?,"
              + " 'jobfile', ?)",
          id,
          file.getKey(),
          file.getValue());
    }
    if (after != null) {
      after.write(c, id);
    }
    if (!dialect.tunesBulkInserts()) {
      // Checked row by row as the rows go in; the trials' ids come from the server's sequence.
      insertTrialRows(c, id, e.trials(), insertCells(c, id, e.cells()), 0);
      return new StoredPlan(id, null);
    }
    long paramsBefore = queryLong(c, "SELECT coalesce(max(rowid), 0) FROM cell_params");
    long knobsBefore = queryLong(c, "SELECT coalesce(max(rowid), 0) FROM cell_knobs");
    long trialsBefore = queryLong(c, "SELECT coalesce(max(id), 0) FROM trials");
    CellIds cellIds = insertCells(c, id, e.cells());
    String byCell = trialsBefore <= e.trials().size() ? dropIndexByCell(c) : null;
    TrialRefs trials = insertTrials(c, id, e.trials(), cellIds, trialsBefore);
    if (byCell != null) {
      update(c, byCell);
    }
    SqlitePlanChecks.keys(
        c, id, cellIds.first(), cellIds.last(), paramsBefore, knobsBefore, trialsBefore);
    long inserted = SqlitePlanChecks.trials(c, trialsBefore);
    boolean idsFollow =
        trials != null
            && inserted == trials.size()
            && queryLong(c, "SELECT coalesce(max(id), 0) FROM trials")
                == trialsBefore + trials.size();
    return new StoredPlan(id, idsFollow ? trials : null);
  }

  /**
   * Drops the trials' index by cell and returns the statement that builds it again; called when the
   * plan brings at least as many trials as the table holds. Trials come in run order, shuffled
   * across cells, so each one lands at a random place in that index; built once from the sorted
   * rows it costs a third of that (0.1 s against 0.35 s for 300,000 trials). With a larger table
   * the rebuild would sort every older trial again: the index is then filled row by row.
   */
  private static String dropIndexByCell(Connection c) throws SQLException {
    String sql;
    try (PreparedStatement ps =
            c.prepareStatement(
                "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'trials_by_cell'");
        ResultSet rs = ps.executeQuery()) {
      sql = rs.next() ? rs.getString(1) : null;
    }
    if (sql != null) {
      update(c, "DROP INDEX trials_by_cell");
    }
    return sql;
  }

  // Cell ids are assigned here rather than read back row by row: inside the write
  // transaction (SQLite's, or PostgreSQL's with the table locked) nobody else can insert, so
  // max(id)+1… are free.
  private CellIds insertCells(Connection c, long experimentId, Iterable<Cell> cells)
      throws SQLException {
    String lock = dialect.lockForIds("cells");
    if (lock != null) {
      update(c, lock);
    }
    CellIds ids = new CellIds(queryLong(c, "SELECT coalesce(max(id), 0) + 1 FROM cells"));
    try (SqliteJsonRows labels =
            new SqliteJsonRows(
                c,
                "INSERT INTO cells (id, experiment_id, ordinal, label) SELECT "
                    + dialect.number("p.p1")
                    + " + key, "
                    + dialect.number("p.p2")
                    + ", "
                    + dialect.number("p.p3")
                    + " + key, value FROM "
                    + dialect.jsonRows(3, false),
                4);
        CellEntries params = new CellEntries(c, dialect, "cell_params", "name");
        CellEntries knobs = new CellEntries(c, dialect, "cell_knobs", "knob")) {
      long firstId = 0;
      int firstOrdinal = 0;
      for (Cell cell : cells) {
        long cellId = ids.add(cell.ordinal());
        // A chunk holds cells of consecutive ids and ordinals.
        if (labels.rows() == CHUNK || cell.ordinal() != firstOrdinal + labels.rows()) {
          labels.flush(firstId, experimentId, firstOrdinal);
        }
        if (labels.rows() == 0) {
          firstId = cellId;
          firstOrdinal = cell.ordinal();
        }
        labels.addText(cell.label());
        params.add(cellId, cell.params());
        knobs.add(cellId, cell.knobs());
      }
      labels.flush(firstId, experimentId, firstOrdinal);
      params.flush();
      knobs.flush();
    }
    String taken = dialect.idsTaken("cells");
    if (taken != null) {
      queryLong(c, taken);
    }
    return ids;
  }

  // One integer per trial (cell id, rep and warm-up flag packed), so that SQLite reads a flat
  // array of numbers. Returns the trials as unfinishedTrials would read them, the i-th with id
  // idsAfter + i, or null when they are not in ascending seq (the order that read gives).
  private TrialRefs insertTrials(
      Connection c, long experimentId, List<Trial> trials, CellIds cellIds, long idsAfter)
      throws SQLException {
    // Their CHECKs (warmup IN (0, 1), status IN (…)), evaluated row by row, took half the time
    // of the insert; every row here is pending with warmup value & 1, as SqlitePlanChecks.trials
    // verifies.
    // The pragma acts when a statement is prepared.
    update(c, "PRAGMA ignore_check_constraints = ON");
    try {
      return insertTrialRows(c, experimentId, trials, cellIds, idsAfter);
    } finally {
      update(c, "PRAGMA ignore_check_constraints = OFF");
    }
  }

  private TrialRefs insertTrialRows(
      Connection c, long experimentId, List<Trial> trials, CellIds cellIds, long idsAfter)
      throws SQLException {
    TrialRefs refs = new TrialRefs(trials.size());
    int lastSeq = 0;
    try (SqliteJsonRows rows =
        new SqliteJsonRows(
            c,
            "INSERT INTO trials (experiment_id, cell_id, rep, seq, warmup) SELECT "
                + dialect.number("p.p1")
                + ", value >> 32, (value & 4294967295) >> 1, "
                + dialect.number("p.p2")
                + " + key, value & 1 FROM "
                + dialect.jsonRows(2, true),
            3)) {
      int firstSeq = 0;
      for (Trial t : trials) {
        long cellId = cellIds.of(t.cellOrdinal(), t.seq());
        if (t.rep() < 0 || cellId > Integer.MAX_VALUE) {
          throw new IllegalArgumentException(
              "trial " + t.seq() + ": rep " + t.rep() + " of cell id " + cellId);
        }
        if (rows.rows() == 5 * CHUNK || t.seq() != firstSeq + rows.rows()) {
          rows.flush(experimentId, firstSeq);
        }
        if (rows.rows() == 0) {
          firstSeq = t.seq();
        }
        rows.addNumber(cellId << 32 | (long) t.rep() << 1 | (t.warmup() ? 1 : 0));
        if (refs != null && (refs.isEmpty() || t.seq() > lastSeq)) {
          refs.add(
              idsAfter + refs.size() + 1, cellId, t.cellOrdinal(), t.rep(), t.seq(), t.warmup());
        } else {
          refs = null;
        }
        lastSeq = t.seq();
      }
      rows.flush(experimentId, firstSeq);
    }
    return refs;
  }

  /** The ids given to the cells, by ordinal. */
  private static final class CellIds {
    private final long first;
    private long next;
    private long[] byOrdinal = new long[1024];

    CellIds(long first) {
      this.first = first;
      this.next = first;
    }

    long first() {
      return first;
    }

    /** The last id given, first - 1 when none was. */
    long last() {
      return next - 1;
    }

    long add(int ordinal) {
      if (ordinal < 1) {
        throw new IllegalArgumentException("cell ordinal " + ordinal + " is not positive");
      }
      if (ordinal >= byOrdinal.length) {
        byOrdinal = Arrays.copyOf(byOrdinal, Math.max(ordinal + 1, byOrdinal.length * 2));
      }
      if (byOrdinal[ordinal] != 0) {
        throw new IllegalArgumentException("two cells with ordinal " + ordinal);
      }
      byOrdinal[ordinal] = next;
      return next++;
    }

    long of(int ordinal, int seq) {
      long id = ordinal > 0 && ordinal < byOrdinal.length ? byOrdinal[ordinal] : 0;
      if (id == 0) {
        throw new IllegalArgumentException(
            "trial " + seq + " refers to no cell with ordinal " + ordinal);
      }
      return id;
    }
  }

  /**
   * A cell's params or knobs, in runs of cells with consecutive ids and the same names in the same
   * order (the common case: every cell of a matrix has the same axes): a run is one array of
   * values, each row's name and position following from its place.
   */
  private static final class CellEntries implements AutoCloseable {
    private final SqliteJsonRows values;
    private String[] names = new String[0];
    private String[] scratchNames = new String[8];
    private String[] scratchValues = new String[8];
    private long firstId;
    private int cellsInRun;

    CellEntries(Connection c, SqlDialect dialect, String table, String nameColumn)
        throws SQLException {
      String perCell = dialect.number("p.p2");
      values =
          new SqliteJsonRows(
              c,
              "INSERT INTO "
                  + table
                  + " (cell_id, "
                  + nameColumn
                  + ", value, pos) SELECT "
                  + dialect.number("p.p1")
                  + " + key / "
                  + perCell
                  + ", "
                  + dialect.jsonElement("p.p3", "key % " + perCell)
                  + ", value, key % "
                  + perCell
                  + " + 1 FROM "
                  + dialect.jsonRows(3, false),
              4);
    }

    void add(long cellId, Map<String, String> entries) throws SQLException {
      int n = entries == null ? 0 : entries.size();
      if (n == 0) {
        return;
      }
      if (n > scratchNames.length) {
        scratchNames = new String[n];
        scratchValues = new String[n];
      }
      int i = 0;
      for (Map.Entry<String, String> entry : entries.entrySet()) {
        scratchNames[i] = entry.getKey();
        scratchValues[i++] = entry.getValue();
      }
      if (cellsInRun == CHUNK
          || cellId != firstId + cellsInRun
          || !Arrays.equals(names, 0, names.length, scratchNames, 0, n)) {
        flush();
      }
      if (cellsInRun == 0) {
        names = Arrays.copyOf(scratchNames, n);
        firstId = cellId;
      }
      for (int v = 0; v < n; v++) {
        values.addText(scratchValues[v]);
      }
      cellsInRun++;
    }

    void flush() throws SQLException {
      if (cellsInRun > 0) {
        values.flush(firstId, names.length, namesJson());
        cellsInRun = 0;
      }
    }

    private String namesJson() {
      StringBuilder json = new StringBuilder("[");
      for (int i = 0; i < names.length; i++) {
        if (i > 0) {
          json.append(',');
        }
        SqliteJsonRows.appendText(json, names[i]);
      }
      return json.append(']').toString();
    }

    @Override
    public void close() throws SQLException {
      values.close();
    }
  }

  /** See {@link ResultStore#recordHost}. */
  void recordHost(long experimentId, String role, String host, Map<String, String> facts) {
    String factsJson = factsJson(host, facts);
    tx.transaction(
        "record host " + host,
        c -> {
          update(
              c,
              "INSERT INTO hosts (experiment_id, role, host, kernel_release,"
                  + " boot_id, cpus, mem_kb, facts_json, recorded_at)"
                  + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (experiment_id, role)"
                  + " DO UPDATE SET host = excluded.host, kernel_release = excluded.kernel_release,"
                  + " boot_id = excluded.boot_id, cpus = excluded.cpus, mem_kb = excluded.mem_kb,"
                  + " facts_json = excluded.facts_json, recorded_at = excluded.recorded_at",
              experimentId,
              role,
              host,
              facts.get("kernel_release"),
              facts.get("boot_id"),
              wholeNumber(facts.get("cpus")),
              wholeNumber(facts.get("mem_kb")),
              factsJson,
              time.now());
          update(
              c, "DELETE FROM host_facts WHERE experiment_id = ? AND host = ?", experimentId, host);
          try (SqliteBatch rows =
              new SqliteBatch(
                  c,
                  "INSERT INTO host_facts (experiment_id, host, key, value) VALUES (?, ?, ?, ?)")) {
            for (Map.Entry<String, String> f : facts.entrySet()) {
              rows.add(experimentId, host, f.getKey(), f.getValue());
            }
          }
          return null;
        });
  }

  /** See {@link ResultStore#recordTestbed}. */
  void recordTestbed(long experimentId, List<TestbedHost> hosts) {
    tx.transaction(
        "record the testbed's hosts",
        c -> {
          update(c, "DELETE FROM testbed_hosts WHERE experiment_id = ?", experimentId);
          for (TestbedHost h : hosts) {
            update(
                c,
                "INSERT INTO testbed_hosts (experiment_id, role, host, address, host_key)"
                    + " VALUES (?, ?, ?, ?, ?)",
                experimentId,
                h.role(),
                h.host(),
                h.address(),
                h.hostKey());
          }
          return null;
        });
  }

  /** See {@link ResultStore#recordVariables}. */
  void recordVariables(long experimentId, Map<String, String> variables) {
    tx.transaction(
        "record variables",
        c -> {
          update(
              c,
              "DELETE FROM variables WHERE experiment_id = ? AND name NOT LIKE '@%'",
              experimentId);
          try (SqliteBatch rows =
              new SqliteBatch(
                  c,
                  "INSERT INTO variables (experiment_id, name, value, pos) VALUES (?, ?, ?, ?)")) {
            int pos = 0;
            for (Map.Entry<String, String> v : variables.entrySet()) {
              rows.add(experimentId, v.getKey(), v.getValue(), ++pos);
            }
          }
          return null;
        });
  }

  /**
   * See {@link ResultStore#recordOpenCell}. Kept in {@code variables} under names no variable can
   * have: {@code @cell} (the ordinal) and {@code @cell.NAME} (a capture).
   */
  void recordOpenCell(long experimentId, OpenCell cell) {
    tx.transaction(
        "record the open cell",
        c -> {
          update(
              c, "DELETE FROM variables WHERE experiment_id = ? AND name LIKE '@%'", experimentId);
          if (cell != null) {
            try (SqliteBatch rows =
                new SqliteBatch(
                    c,
                    "INSERT INTO variables (experiment_id, name, value, pos)"
                        + " VALUES (?, ?, ?, ?)")) {
              int pos = 0;
              rows.add(experimentId, OPEN_CELL, Integer.toString(cell.cellOrdinal()), ++pos);
              for (Map.Entry<String, String> v : cell.captures().entrySet()) {
                rows.add(experimentId, OPEN_CELL + "." + v.getKey(), v.getValue(), ++pos);
              }
            }
          }
          return null;
        });
  }

  /**
   * The facts as one JSON object, as Jackson's ObjectMapper writes a map of strings: built here,
   * since making a mapper (loading its classes) took 0.1 s before the first trial of a run.
   */
  static String factsJson(String host, Map<String, String> facts) {
    StringBuilder json = new StringBuilder("{");
    for (Map.Entry<String, String> f : facts.entrySet()) {
      if (f.getKey() == null) {
        throw new IllegalArgumentException(
            "facts of " + host + " are not serialisable: a null key");
      }
      if (json.length() > 1) {
        json.append(',');
      }
      SqliteJsonRows.appendText(json, f.getKey());
      json.append(':');
      SqliteJsonRows.appendText(json, f.getValue());
    }
    return json.append('}').toString();
  }

  /** The {@code --set} overrides as one JSON object (column {@code overrides}); null for none. */
  static String overridesJson(Map<String, String> overrides) {
    return overrides.isEmpty() ? null : factsJson("the --set overrides", overrides);
  }

  private static Long wholeNumber(String text) {
    if (text == null || !text.trim().matches("\\d{1,18}")) {
      return null;
    }
    return Long.parseLong(text.trim());
  }
}
