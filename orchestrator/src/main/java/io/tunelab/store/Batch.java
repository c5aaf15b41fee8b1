package io.tunelab.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;

/**
 * One prepared INSERT fed row by row and sent to SQLite in chunks, so that a plan of hundreds of
 * thousands of rows costs one statement compilation and bounded memory.
 */
final class Batch implements AutoCloseable {
  private static final int CHUNK = 10_000;

  private final PreparedStatement statement;
  private int pending;

  Batch(Connection db, String sql) throws SQLException {
    this.statement = db.prepareStatement(sql);
  }

  /** Adds one row; {@code null}, NaN and infinities become SQL NULL, booleans 0/1. */
  void add(Object... values) throws SQLException {
    for (int i = 0; i < values.length; i++) {
      bind(statement, i + 1, values[i]);
    }
    statement.addBatch();
    if (++pending == CHUNK) {
      flush();
    }
  }

  /** Sends what is pending. */
  void flush() throws SQLException {
    if (pending > 0) {
      statement.executeBatch();
      pending = 0;
    }
  }

  @Override
  public void close() throws SQLException {
    try {
      flush();
    } finally {
      statement.close();
    }
  }

  static void bind(PreparedStatement ps, int index, Object value) throws SQLException {
    if (value == null) {
      ps.setNull(index, Types.NULL);
    } else if (value instanceof Boolean b) {
      ps.setInt(index, b ? 1 : 0);
    } else if (value instanceof Double d) {
      if (Double.isFinite(d)) {
        ps.setDouble(index, d);
      } else {
        ps.setNull(index, Types.REAL);
      }
    } else if (value instanceof Integer n) {
      ps.setInt(index, n);
    } else if (value instanceof Long n) {
      ps.setLong(index, n);
    } else {
      ps.setString(index, value.toString());
    }
  }
}
