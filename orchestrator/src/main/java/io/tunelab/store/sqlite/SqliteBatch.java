package io.tunelab.store.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * One prepared INSERT fed row by row and sent to SQLite in chunks, so that a plan of hundreds of
 * thousands of rows costs one statement compilation and bounded memory.
 */
final class SqliteBatch implements AutoCloseable {
  private static final int CHUNK = 10_000;

  private final PreparedStatement statement;
  private int pending;

  SqliteBatch(Connection db, String sql) throws SQLException {
    this.statement = db.prepareStatement(sql);
  }

  /** Adds one row; {@code null}, NaN and infinities become SQL NULL, booleans 0/1. */
  void add(Object... values) throws SQLException {
    SqliteStatements.bindAll(statement, values);
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
}
