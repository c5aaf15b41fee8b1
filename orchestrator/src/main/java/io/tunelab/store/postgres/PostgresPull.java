package io.tunelab.store.postgres;

import io.tunelab.store.sql.ExperimentCopy;
import io.tunelab.store.sql.ExperimentCopy.Table;
import io.tunelab.store.sql.SqlDialect;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Copies experiments of a PostgreSQL database, with every row they own, into a migrated SQLite file
 * under the same ids: the local copy a run works on, or the snapshot a report reads. Rows come in
 * the order PostgreSQL keeps them, which for rows only ever inserted together is the order they
 * were written in, as SQLite's rowid gives it.
 */
final class PostgresPull {
  private PostgresPull() {}

  /** An SQLite connection to {@code file}, foreign keys on, in a transaction of its own. */
  static Connection sqlite(Path file) throws SQLException {
    Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toUri());
    try (Statement st = c.createStatement()) {
      st.execute("PRAGMA foreign_keys = ON");
    }
    c.setAutoCommit(false);
    return c;
  }

  /**
   * Copies experiment {@code id} from {@code pg} (inside its transaction) into {@code file}, which
   * holds a migrated, empty tunelab schema or other experiments; with {@code light} only its row
   * and its trials (what {@code status} lists).
   */
  static void pull(Connection pg, Path file, long id, boolean light) throws SQLException {
    try (Connection into = sqlite(file)) {
      copy(pg, into, "experiments", "id = ?", id);
      for (Table t : ExperimentCopy.TABLES) {
        if (!light || t.name().equals("cells") || t.name().equals("trials")) {
          copy(pg, into, t.name(), t.owner().where(), id);
        }
      }
      into.commit();
    }
  }

  /** Removes experiment {@code id} from {@code file} (its rows go with it: ON DELETE CASCADE). */
  static void drop(Path file, long id) throws SQLException {
    try (Connection into = sqlite(file);
        PreparedStatement ps = into.prepareStatement("DELETE FROM experiments WHERE id = ?")) {
      ps.setLong(1, id);
      ps.executeUpdate();
      into.commit();
    }
  }

  private static void copy(Connection pg, Connection into, String table, String where, long id)
      throws SQLException {
    List<String> cols = shared(pg, into, table);
    String list = String.join(", ", cols);
    try (PreparedStatement read =
            pg.prepareStatement(
                "SELECT " + list + " FROM " + table + " WHERE " + where + " ORDER BY ctid");
        PreparedStatement write =
            into.prepareStatement(
                "INSERT INTO "
                    + table
                    + " ("
                    + list
                    + ") VALUES ("
                    + "?, ".repeat(cols.size() - 1)
                    + "?)")) {
      read.setLong(1, id);
      read.setFetchSize(1000);
      int n = 0;
      try (ResultSet rs = read.executeQuery()) {
        while (rs.next()) {
          for (int i = 1; i <= cols.size(); i++) {
            write.setObject(i, rs.getObject(i));
          }
          write.addBatch();
          if (++n % 1000 == 0) {
            write.executeBatch();
          }
        }
      }
      write.executeBatch();
    }
  }

  /** The columns both databases have, in the SQLite file's order. */
  static List<String> shared(Connection pg, Connection sqlite, String table) throws SQLException {
    List<String> cols = new ArrayList<>(ExperimentCopy.columns(sqlite, SqlDialect.SQLITE, table));
    cols.retainAll(ExperimentCopy.columns(pg, SqlDialect.POSTGRESQL, table));
    return cols;
  }
}
