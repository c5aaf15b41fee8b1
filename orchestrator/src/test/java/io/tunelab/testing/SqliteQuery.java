package io.tunelab.testing;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** What a test reads back from a run's SQLite database: rows of text, as the CLI's user would. */
public final class SqliteQuery {
  private SqliteQuery() {}

  /** Every row of {@code sql} on the database file {@code db}, each column as text. */
  public static List<List<String>> rows(Path db, String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      List<List<String>> rows = new ArrayList<>();
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<String> row = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
          row.add(rs.getString(i));
        }
        rows.add(row);
      }
      return rows;
    }
  }
}
