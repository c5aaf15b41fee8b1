package io.tunelab.store.sqlite;

import io.tunelab.TunelabException;
import io.tunelab.store.QueryAnswer;
import io.tunelab.store.QueryLimits;
import io.tunelab.store.ResultTable;
import io.tunelab.store.sql.QueryRows;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.sqlite.ProgressHandler;

/**
 * Runs one SQL statement of the user's ({@code tunelab query}) on a store opened read-only, and
 * only a statement that reads: three locks on one door. {@link SqliteStatementText} lets through
 * only SELECT, WITH, VALUES, EXPLAIN and the PRAGMAs that read, before anything is prepared (so
 * VACUUM INTO and ATTACH never reach SQLite); a SELECT, WITH or VALUES is then prepared under
 * EXPLAIN and refused when its program would open a table for writing; and the connection itself is
 * read-only.
 */
public final class SqliteQueryRunner {
  private static final int SQLITE_READONLY = 8;
  private static final int SQLITE_INTERRUPT = 9;

  /** Opcodes of a program that writes: to a table, the schema, or another file. */
  private static final Set<String> WRITING_OPCODES =
      Set.of(
          "OpenWrite",
          "Vacuum",
          "JournalMode",
          "Checkpoint",
          "VUpdate",
          "Destroy",
          "Clear",
          "CreateBtree",
          "ParseSchema",
          "DropTable",
          "DropIndex",
          "DropTrigger",
          "IncrVacuum",
          "SqlExec");

  private static final Pattern INTEGER = Pattern.compile("-?(0|[1-9][0-9]{0,17})");
  private static final Pattern REAL = Pattern.compile("-?(0|[1-9][0-9]{0,17})\\.[0-9]{1,17}");

  private SqliteQueryRunner() {}

  /**
   * Opens {@code db} read-only, runs one read statement with {@code params} (name without {@code :}
   * to value) bound to its named parameters, and closes it again: {@code tunelab query} in one
   * call. Parameters the statement does not use are ignored. A missing file, bad SQL, several
   * statements, a statement that does not only read, or a parameter without a value fail with exit
   * code 2.
   */
  public static ResultTable query(Path db, String sql, Map<String, String> params) {
    try (SqliteTransactions tx = SqliteSchema.openReadOnly(db)) {
      return run(tx, sql, params);
    }
  }

  /**
   * As {@link #query(Path, String, Map)}, within {@code limits}: rows beyond the most are left
   * unread ({@link QueryAnswer#cut}), and a statement still running when its time is up is
   * interrupted and fails with exit code 2.
   */
  public static QueryAnswer query(
      Path db, String sql, Map<String, String> params, QueryLimits limits) {
    try (SqliteTransactions tx = SqliteSchema.openReadOnly(db)) {
      return run(tx, sql, params, limits);
    }
  }

  /** {@link #run(SqliteTransactions, String, Map)} without parameter values. */
  static ResultTable run(SqliteTransactions tx, String sql) {
    return run(tx, sql, Map.of());
  }

  /**
   * The statement's rows, run on {@code tx}. On a store opened read-only (every one that runs a
   * user's SQL) what {@link #query(Path, String, Map)} refuses fails with exit code 2; a store
   * opened for writing runs one statement of any kind, as its caller (tunelab) gives it.
   */
  static ResultTable run(SqliteTransactions tx, String sql, Map<String, String> params) {
    return run(tx, sql, params, null).table();
  }

  /** As {@link #run(SqliteTransactions, String, Map)}, within {@code limits} unless null. */
  private static QueryAnswer run(
      SqliteTransactions tx, String sql, Map<String, String> params, QueryLimits limits) {
    try {
      return tx.autocommit(
          db -> {
            SqliteStatementText statement =
                db.isReadOnly()
                    ? SqliteStatementText.of(sql, tx.file())
                    : SqliteStatementText.anyKind(sql);
            List<Object> values = values(statement.parameters(), params);
            if (statement.kind() == SqliteStatementText.Kind.QUERY) {
              requireOnlyReads(db, statement.text(), tx.file());
            }
            if (limits == null) {
              return execute(db, statement, values, Integer.MAX_VALUE);
            }
            // Asked every thousand VM steps: a statement that yields no row is stopped too.
            ProgressHandler.setHandler(
                db, 1000, new Deadline(System.nanoTime() + limits.timeout().toNanos()));
            try {
              return execute(db, statement, values, limits.maxRows());
            } finally {
              ProgressHandler.clearHandler(db);
            }
          });
    } catch (SQLException e) {
      if ((e.getErrorCode() & 0xff) == SQLITE_READONLY) {
        throw SqliteStatementText.wouldChange(tx.file());
      }
      if ((e.getErrorCode() & 0xff) == SQLITE_INTERRUPT && limits != null) {
        throw new TunelabException(
            TunelabException.BAD_INPUT,
            "query stopped: still running after "
                + limits.timeout().toSeconds()
                + " s (--timeout); narrow the statement or give a longer --timeout");
      }
      throw new TunelabException(
          TunelabException.BAD_INPUT, "query failed: " + SqliteConnections.reason(e));
    }
  }

  /** The values for {@code names} (with their {@code :}, {@code $} or {@code @}), typed. */
  private static List<Object> values(List<String> names, Map<String, String> params) {
    Map<String, String> given = new LinkedHashMap<>();
    params.forEach((k, v) -> given.put(k.replaceFirst("^[:$@]", ""), v));
    List<Object> values = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (String name : names) {
      String value = given.get(name.substring(1));
      if (value == null) {
        missing.add(name);
      } else {
        values.add(typed(value));
      }
    }
    if (!missing.isEmpty()) {
      StringBuilder give = new StringBuilder();
      missing.stream()
          .map(n -> n.substring(1))
          .distinct()
          .forEach(n -> give.append(" --param ").append(n).append("=VALUE"));
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          "the statement's parameter"
              + (missing.size() == 1 ? " " : "s ")
              + String.join(", ", missing)
              + (missing.size() == 1 ? " has" : " have")
              + " no value: give"
              + give);
    }
    return values;
  }

  /**
   * A decimal integer of up to 18 digits is bound as an integer, a decimal fraction as a real,
   * anything else as text: {@code experiment_id = :experiment} and {@code LIMIT :n} then work as
   * written.
   */
  static Object typed(String value) {
    if (INTEGER.matcher(value).matches()) {
      return Long.parseLong(value);
    }
    if (REAL.matcher(value).matches()) {
      return Double.parseDouble(value);
    }
    return value;
  }

  /**
   * Refuses a statement whose compiled program writes. EXPLAIN only compiles: it runs nothing of
   * the statement it lists.
   */
  static void requireOnlyReads(Connection db, String statement, Path file) throws SQLException {
    try (PreparedStatement ps = db.prepareStatement("EXPLAIN " + statement);
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        String opcode = rs.getString("opcode");
        boolean writeTransaction = "Transaction".equals(opcode) && rs.getInt("p2") != 0;
        if (writeTransaction || WRITING_OPCODES.contains(opcode)) {
          throw SqliteStatementText.wouldChange(file);
        }
      }
    }
  }

  private static QueryAnswer execute(
      Connection db, SqliteStatementText statement, List<Object> values, int maxRows)
      throws SQLException {
    try (PreparedStatement ps = db.prepareStatement(statement.text())) {
      if (ps.getParameterMetaData().getParameterCount() != values.size()) {
        // Only SQLite's Tcl forms ($a::b, $a(x)) are read differently here.
        throw new TunelabException(
            TunelabException.BAD_INPUT,
            "cannot tell the statement's parameters apart; name them :name, $name or @name with"
                + " letters, digits and _");
      }
      for (int i = 0; i < values.size(); i++) {
        ps.setObject(i + 1, values.get(i));
      }
      if (!ps.execute()) {
        return new QueryAnswer(new ResultTable(List.of(), List.of()), false);
      }
      try (ResultSet rs = ps.getResultSet()) {
        return QueryRows.read(rs, maxRows);
      }
    }
  }

  /** Interrupts the statement once {@code deadline} ({@link System#nanoTime}) has passed. */
  private static final class Deadline extends ProgressHandler {
    private final long deadline;

    Deadline(long deadline) {
      this.deadline = deadline;
    }

    @Override
    protected int progress() {
      return System.nanoTime() - deadline > 0 ? 1 : 0;
    }
  }
}
