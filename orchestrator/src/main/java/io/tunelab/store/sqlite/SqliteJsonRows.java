package io.tunelab.store.sqlite;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * One prepared {@code INSERT … SELECT … FROM json_each(?)} fed a JSON array of values, one element
 * per row: SQLite unpacks a chunk of rows in one call, where a JDBC batch costs several native
 * calls per row (bind each column, step, reset). The statement's last parameter is the array; the
 * others are the chunk's own (the id of its first row, …), set by {@link #flush}.
 */
final class SqliteJsonRows implements AutoCloseable {
  private static final JsonStringEncoder ENCODER = JsonStringEncoder.getInstance();

  private final PreparedStatement statement;
  private final int arrayIndex;
  private final StringBuilder json = new StringBuilder(1 << 16);
  private int rows;

  /**
   * @param parameters how many parameters {@code sql} has; the JSON array binds to the last
   */
  SqliteJsonRows(Connection db, String sql, int parameters) throws SQLException {
    this.statement = db.prepareStatement(sql);
    this.arrayIndex = parameters;
  }

  /** Rows waiting for {@link #flush}. */
  int rows() {
    return rows;
  }

  /** Adds a row whose element is a JSON string. */
  void addText(String value) {
    separate();
    appendText(json, value);
  }

  /** Appends {@code value} to {@code json} as a JSON string, or {@code null}. */
  static void appendText(StringBuilder json, String value) {
    if (value == null) {
      json.append("null");
    } else {
      json.append('"');
      ENCODER.quoteAsString(value, json);
      json.append('"');
    }
  }

  /** Adds a row whose element is a JSON integer. */
  void addNumber(long value) {
    separate();
    json.append(value);
  }

  private void separate() {
    json.append(rows++ == 0 ? '[' : ',');
  }

  /** Inserts the waiting rows, with {@code chunkParameters} bound to the first parameters. */
  void flush(Object... chunkParameters) throws SQLException {
    if (rows == 0) {
      return;
    }
    json.append(']');
    SqliteStatements.bindAll(statement, chunkParameters);
    statement.setString(arrayIndex, json.toString());
    statement.executeUpdate();
    json.setLength(0);
    rows = 0;
  }

  @Override
  public void close() throws SQLException {
    statement.close();
  }
}
