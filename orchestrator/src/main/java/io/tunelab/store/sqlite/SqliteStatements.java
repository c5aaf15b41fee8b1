package io.tunelab.store.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;

/** One-off statements with bound arguments, and how every Java value binds to SQLite. */
final class SqliteStatements {
  private SqliteStatements() {}

  /** Runs one INSERT, UPDATE or DELETE; returns how many rows it changed. */
  static int update(Connection c, String sql, Object... args) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      bindAll(ps, args);
      return ps.executeUpdate();
    }
  }

  /** The first column of the first row of a query without arguments. */
  static long queryLong(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** The first column of the first row of a query with {@code args} bound. */
  static long queryLong(Connection c, String sql, Object... args) throws SQLException {
    if (args.length == 0) {
      return queryLong(c, sql);
    }
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      bindAll(ps, args);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /** Binds {@code args} to the parameters 1, 2 … of {@code ps}. */
  static void bindAll(PreparedStatement ps, Object... args) throws SQLException {
    for (int i = 0; i < args.length; i++) {
      bind(ps, i + 1, args[i]);
    }
  }

  /**
   * Binds one value: {@code null}, NaN and infinities become SQL NULL, booleans 0/1, {@code byte[]}
   * a BLOB.
   */
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
    } else if (value instanceof byte[] blob) {
      ps.setBytes(index, blob);
    } else {
      ps.setString(index, value.toString());
    }
  }
}
