package io.tunelab.store.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * One prepared INSERT fed row by row and sent to SQLite in chunks, so that a plan of hundreds of
 * thousands of rows costs one statement compilation and bounded memory. It is compiled at the first
 * row: a trial's commit opens a batch for each kind of row it may have, most of them empty.
 */
final class SqliteBatch implements AutoCloseable {
  private static final int CHUNK = 10_000;

  private final Connection db;
  private final String sql;
  private PreparedStatement statement;
  private int pending;

  SqliteBatch(Connection db, String sql) {
    this.db = db;
    this.sql = sql;
  }

  /** Adds one row; {@code null}, NaN and infinities become SQL NULL, booleans 0/1. */
  void add(Object... values) throws SQLException {
    if (statement == null) {
      statement = db.prepareStatement(sql);
    }
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
    if (statement == null) {
      return;
    }
    try {
      flush();
    } finally {
      statement.close();
    }
  }
}
