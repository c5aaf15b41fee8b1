package io.tunelab.store.sqlite;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tunelab.plan.Cell;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.ExperimentSummary;
import io.tunelab.store.OpenCell;
import io.tunelab.store.ResultReader;
import io.tunelab.store.ResultStore;
import io.tunelab.store.StoredExperiment;
import io.tunelab.store.StoredFile;
import io.tunelab.store.TrialCounts;
import io.tunelab.store.TrialRef;
import io.tunelab.store.TrialStatus;
import io.tunelab.store.sql.SqlDialect;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads experiments back as the runner and {@code status} need them: found by id or name, listed
 * with their progress, and with what {@code resume} needs (cells, variables, unfinished trials).
 */
final class SqliteExperiments {
  private static final String COLUMNS =
      "id, name, status, matrix_yaml, matrix_path, order_mode, seed, repeat, warmup, ";

  private final Transactions tx;

  SqliteExperiments(Transactions tx) {
    this.tx = tx;
  }

  /** See {@link ResultStore#findExperiment}. */
  Optional<StoredExperiment> find(String idOrName) {
    return tx.transaction(
        "find experiment " + idOrName,
        c -> {
          if (idOrName.matches("\\d{1,18}")) {
            Optional<StoredExperiment> byId = one(c, "WHERE id = ?", Long.parseLong(idOrName));
            if (byId.isPresent()) {
              return byId;
            }
          }
          return one(c, "WHERE name = ? ORDER BY id DESC LIMIT 1", idOrName);
        });
  }

  /** See {@link ResultReader#files}. */
  List<StoredFile> files(long experimentId) {
    return tx.transaction(
        "read the files of experiment " + experimentId,
        c -> {
          List<StoredFile> files = new ArrayList<>();
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT path, kind, content FROM experiment_files WHERE experiment_id = ?"
                      + " ORDER BY kind, path")) {
            ps.setLong(1, experimentId);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                files.add(new StoredFile(rs.getString(1), rs.getString(2), rs.getString(3)));
              }
            }
          }
          return files;
        });
  }

  /** See {@link ResultStore#latest}. */
  Optional<StoredExperiment> latest() {
    return tx.transaction("find the latest experiment", c -> one(c, "ORDER BY id DESC LIMIT 1"));
  }

  private static Optional<StoredExperiment> one(Connection c, String where, Object... args)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT "
                + COLUMNS
                + overridesColumn(c, SqlDialect.of(c))
                + " FROM experiments "
                + where)) {
      SqliteStatements.bindAll(ps, args);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        return Optional.of(
            new StoredExperiment(
                rs.getLong(1),
                rs.getString(2),
                ExperimentStatus.of(rs.getString(3)),
                rs.getString(4),
                rs.getString(5),
                rs.getString(6),
                rs.getLong(7),
                rs.getInt(8),
                rs.getInt(9),
                overrides(rs.getString(10))));
      }
    }
  }

  /**
   * The column of the overrides, or NULL in a database a read-only command did not migrate to
   * schema version 5.
   */
  static String overridesColumn(Connection c, SqlDialect dialect) throws SQLException {
    return columnOrNull(c, dialect, "overrides");
  }

  /**
   * {@code column} of {@code experiments}, or NULL in a database a read-only command did not
   * migrate to the version that added it.
   */
  static String columnOrNull(Connection c, SqlDialect dialect, String column) throws SQLException {
    return columnOr(c, dialect, "experiments", column, "NULL");
  }

  /**
   * What orders the rows of {@code table} (as {@code alias}) as they were written: its column
   * {@code pos}, or in a database a read-only command did not migrate to schema version 11, the
   * rows' rowid (nothing on PostgreSQL, which has no such order).
   */
  static String orderColumn(Connection c, SqlDialect dialect, String table, String alias)
      throws SQLException {
    if (columnOr(c, dialect, table, "pos", null) != null) {
      return alias + ".pos";
    }
    return dialect == SqlDialect.SQLITE ? alias + ".rowid" : "0";
  }

  private static String columnOr(
      Connection c, SqlDialect dialect, String table, String column, String otherwise)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(dialect.columnsQuery())) {
      ps.setString(1, table);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          if (column.equals(rs.getString(1))) {
            return column;
          }
        }
        return otherwise;
      }
    }
  }

  /** The overrides {@link SqlitePlanWriter#overridesJson} stored, in order; none for null. */
  static Map<String, String> overrides(String json) {
    Map<String, String> overrides = new LinkedHashMap<>();
    if (json == null) {
      return overrides;
    }
    try (JsonParser p = new JsonFactory().createParser(json)) {
      p.nextToken();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        p.nextToken();
        overrides.put(name, p.getText());
      }
    } catch (IOException e) {
      throw new IllegalStateException("experiments.overrides is not a JSON object: " + json, e);
    }
    return overrides;
  }

  /** See {@link ResultStore#experiments}. */
  List<ExperimentSummary> all() {
    return tx.transaction(
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
                      rs.getLong("experiment_id"),
                      rs.getString("name"),
                      ExperimentStatus.of(rs.getString("status")),
                      rs.getString("created_at"),
                      rs.getString("started_at"),
                      rs.getString("finished_at"),
                      rs.getInt("cells"),
                      counts(rs, 8)));
            }
          }
          return all;
        });
  }

  /** See {@link ResultStore#trialCounts}. */
  TrialCounts trialCounts(long experimentId) {
    return tx.transaction(
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
              return counts(rs, 1);
            }
          }
        });
  }

  /**
   * The counts in the columns ok, failed, skipped, pending, running of {@code experiment_progress}
   * from column {@code first} on.
   */
  static TrialCounts counts(ResultSet rs, int first) throws SQLException {
    return new TrialCounts(
        rs.getInt(first),
        rs.getInt(first + 1),
        rs.getInt(first + 2),
        rs.getInt(first + 3),
        rs.getInt(first + 4));
  }

  /** See {@link ResultStore#variables}. */
  Map<String, String> variables(long experimentId) {
    return tx.transaction(
        "read variables",
        c -> {
          Map<String, String> vars = new LinkedHashMap<>();
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT name, value FROM variables WHERE experiment_id = ?"
                      + " AND name NOT LIKE '@%' ORDER BY pos")) {
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

  /** See {@link ResultStore#openCell}. */
  Optional<OpenCell> openCell(long experimentId) {
    return tx.transaction(
        "read the open cell",
        c -> {
          Integer ordinal = null;
          Map<String, String> captures = new LinkedHashMap<>();
          String prefix = SqlitePlanWriter.OPEN_CELL + ".";
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT name, value FROM variables WHERE experiment_id = ?"
                      + " AND name LIKE '@%' ORDER BY pos")) {
            ps.setLong(1, experimentId);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                String name = rs.getString(1);
                if (name.equals(SqlitePlanWriter.OPEN_CELL)) {
                  ordinal = Integer.valueOf(rs.getString(2));
                } else if (name.startsWith(prefix)) {
                  captures.put(name.substring(prefix.length()), rs.getString(2));
                }
              }
            }
          }
          return ordinal == null
              ? Optional.<OpenCell>empty()
              : Optional.of(new OpenCell(ordinal, captures));
        });
  }

  /** The experiment a trial belongs to, or -1 when there is no such trial. */
  long experimentOfTrial(long trialId) {
    return tx.transaction(
        "find the experiment of trial " + trialId,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement("SELECT experiment_id FROM trials WHERE id = ?")) {
            ps.setLong(1, trialId);
            try (ResultSet rs = ps.executeQuery()) {
              return rs.next() ? rs.getLong(1) : -1L;
            }
          }
        });
  }

  /** See {@link ResultStore#cells}. */
  List<Cell> cells(long experimentId) {
    return tx.transaction("read cells", c -> new SqliteCellReader(c).cells(experimentId));
  }

  /** Trials read per query by {@link #unfinishedTrials}. */
  private static final int TRIAL_PAGE = 50_000;

  /**
   * See {@link ResultStore#unfinishedTrials}. A page of trials comes back as one text of numbers
   * (one row, one column): read row by row, each of 300,000 trials cost seven native calls. When
   * the experiment's cell ids follow its ordinals at a fixed distance (as the plan writer assigns
   * them) a trial's ordinal is computed from its cell id: looking up each trial's cell took more
   * than half the time.
   */
  List<TrialRef> unfinishedTrials(long experimentId) {
    return tx.transaction(
        "read unfinished trials",
        c -> {
          Long offset = cellIdOffset(c, experimentId);
          TrialRefs refs = new TrialRefs();
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT count(*), max(seq), "
                      + tx.dialect()
                          .joined(
                              "id || ' ' || cell_id || ' ' || ordinal || ' ' || rep || ' ' || seq"
                                  + " || ' ' || warmup",
                              "' '")
                      + " FROM (SELECT t.id, t.cell_id, "
                      + (offset == null
                          ? "c.ordinal, t.rep, t.seq, t.warmup"
                              + " FROM trials t JOIN cells c ON c.id = t.cell_id"
                          : "t.cell_id - "
                              + offset
                              + " AS ordinal, t.rep, t.seq, t.warmup"
                              + " FROM trials t")
                      + " WHERE t.experiment_id = ? AND t.status IN (?, ?) AND t.seq > ?"
                      + " ORDER BY t.seq LIMIT ?) page")) {
            long after = Long.MIN_VALUE;
            int count;
            do {
              SqliteStatements.bindAll(
                  ps,
                  experimentId,
                  TrialStatus.PENDING.text(),
                  TrialStatus.RUNNING.text(),
                  after,
                  TRIAL_PAGE);
              try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                count = rs.getInt(1);
                after = rs.getLong(2);
                if (count > 0) {
                  addTrials(refs, rs.getString(3), count);
                }
              }
            } while (count == TRIAL_PAGE);
          }
          return refs;
        });
  }

  /**
   * The difference between each cell's id and its ordinal when it is the same for every cell of the
   * experiment, else null.
   */
  private static Long cellIdOffset(Connection c, long experimentId) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT min(id - ordinal), max(id - ordinal) FROM cells WHERE experiment_id = ?")) {
      ps.setLong(1, experimentId);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        long min = rs.getLong(1);
        return !rs.wasNull() && min == rs.getLong(2) ? min : null;
      }
    }
  }

  /**
   * Adds a page of trials, six numbers each, in the order of their seq: the page's rows come in
   * that order in practice, but group_concat promises none (asking it to sort cost a third of the
   * read), so the order is checked and, if need be, made.
   */
  static void addTrials(TrialRefs refs, String numbers, int count) {
    long[] n = new long[count * 6];
    int at = 0;
    boolean ordered = true;
    for (int i = 0; i < n.length; i++) {
      boolean negative = numbers.charAt(at) == '-';
      if (negative) {
        at++;
      }
      long v = 0;
      char ch;
      while (at < numbers.length() && (ch = numbers.charAt(at)) != ' ') {
        v = v * 10 + (ch - '0');
        at++;
      }
      at++; // the space
      n[i] = negative ? -v : v;
      if (i % 6 == 4 && i > 6 && n[i] <= n[i - 6]) {
        ordered = false;
      }
    }
    if (ordered) {
      for (int t = 0; t < count; t++) {
        addTrial(refs, n, t);
      }
    } else {
      Integer[] order = new Integer[count];
      Arrays.setAll(order, t -> t);
      Arrays.sort(order, Comparator.comparingLong(t -> n[t * 6 + 4]));
      for (int t : order) {
        addTrial(refs, n, t);
      }
    }
  }

  private static void addTrial(TrialRefs refs, long[] n, int t) {
    int f = t * 6;
    refs.add(n[f], n[f + 1], (int) n[f + 2], (int) n[f + 3], (int) n[f + 4], n[f + 5] != 0);
  }
}
