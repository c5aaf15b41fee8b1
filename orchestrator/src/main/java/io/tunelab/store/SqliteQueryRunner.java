package io.tunelab.store;

import io.tunelab.TunelabException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one SQL statement of the user's ({@code tunelab query}) on a store opened read-only, so that
 * a statement that would change the database fails instead.
 */
final class SqliteQueryRunner {
  private static final int SQLITE_READONLY = 8;

  private SqliteQueryRunner() {}

  /**
   * The statement's rows, run on {@code tx}, which should be read-only; bad SQL, several statements
   * or a write fail with exit code 2.
   */
  static ResultTable run(SqliteTransactions tx, String sql) {
    String statement = single(sql);
    try {
      return tx.autocommit(
          db -> {
            try (PreparedStatement ps = db.prepareStatement(statement)) {
              if (!ps.execute()) {
                return new ResultTable(List.of(), List.of());
              }
              try (ResultSet rs = ps.getResultSet()) {
                return table(rs);
              }
            }
          });
    } catch (SQLException e) {
      if ((e.getErrorCode() & 0xff) == SQLITE_READONLY) {
        throw new TunelabException(
            TunelabException.BAD_INPUT,
            "tunelab query is read-only: this statement would change " + tx.file());
      }
      throw new TunelabException(
          TunelabException.BAD_INPUT, "query failed: " + SqliteConnections.reason(e));
    }
  }

  private static ResultTable table(ResultSet rs) throws SQLException {
    ResultSetMetaData meta = rs.getMetaData();
    int n = meta.getColumnCount();
    List<String> columns = new ArrayList<>(n);
    for (int i = 1; i <= n; i++) {
      columns.add(meta.getColumnLabel(i));
    }
    List<List<Object>> rows = new ArrayList<>();
    while (rs.next()) {
      List<Object> row = new ArrayList<>(n);
      for (int i = 1; i <= n; i++) {
        Object v = rs.getObject(i);
        // SQLite integers arrive as Integer or Long depending on size: one type for callers.
        row.add(v instanceof Integer small ? Long.valueOf(small) : v);
      }
      rows.add(row);
    }
    return new ResultTable(columns, rows);
  }

  /**
   * The one statement in {@code sql}, without its final semicolon. SQLite would silently ignore
   * everything after the first statement, so a second one is refused here.
   */
  static String single(String sql) {
    int start = skipNoise(sql, 0);
    if (start == sql.length()) {
      throw new TunelabException(TunelabException.BAD_INPUT, "no SQL statement given");
    }
    int i = start;
    while (i < sql.length() && sql.charAt(i) != ';') {
      int next = skipComment(sql, i);
      if (next == i) {
        next = skipQuoted(sql, i);
      }
      i = next == i ? i + 1 : next;
    }
    if (skipNoise(sql, i) != sql.length()) {
      throw new TunelabException(
          TunelabException.BAD_INPUT, "tunelab query runs one SQL statement; found more than one");
    }
    return sql.substring(start, i);
  }

  /** Skips whitespace, comments and semicolons. */
  private static int skipNoise(String sql, int i) {
    while (i < sql.length()) {
      int next = skipComment(sql, i);
      if (next != i) {
        i = next;
      } else if (Character.isWhitespace(sql.charAt(i)) || sql.charAt(i) == ';') {
        i++;
      } else {
        break;
      }
    }
    return i;
  }

  private static int skipComment(String sql, int i) {
    if (sql.startsWith("--", i)) {
      int end = sql.indexOf('\n', i);
      return end < 0 ? sql.length() : end + 1;
    }
    if (sql.startsWith("/*", i)) {
      int end = sql.indexOf("*/", i + 2);
      return end < 0 ? sql.length() : end + 2;
    }
    return i;
  }

  /** Skips a quoted string or identifier ('…', "…", `…`, […]); doubled quotes stay inside. */
  private static int skipQuoted(String sql, int i) {
    char open = sql.charAt(i);
    char close =
        switch (open) {
          case '\'', '"', '`' -> open;
          case '[' -> ']';
          default -> 0;
        };
    if (close == 0) {
      return i;
    }
    int j = i + 1;
    while (j < sql.length()) {
      if (sql.charAt(j) == close) {
        if (close != ']' && j + 1 < sql.length() && sql.charAt(j + 1) == close) {
          j += 2;
          continue;
        }
        return j + 1;
      }
      j++;
    }
    return sql.length();
  }
}
