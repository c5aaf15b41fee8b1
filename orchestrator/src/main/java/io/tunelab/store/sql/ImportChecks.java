package io.tunelab.store.sql;

import io.tunelab.TunelabException;
import io.tunelab.store.sql.ExperimentCopy.Owner;
import io.tunelab.store.sql.ExperimentCopy.Table;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code import} refuses in an SQLite file before it copies anything: what no tunelab would
 * have written there, and a copy would carry into a database a team shares. Objects tunelab does
 * not create (a view or trigger, a view where a table belongs), ids a plan could not go on from,
 * rows that point into another experiment.
 */
public final class ImportChecks {
  /**
   * The largest id a copied row may have: far beyond any real file's, and far enough below the
   * 64-bit limit that the ids of every later plan, copy and id arithmetic stay within it.
   */
  public static final long MAX_ID = 1L << 53;

  private static final String KNOWN_QUERY =
      "SELECT name, type FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name";

  private ImportChecks() {}

  /**
   * Refuses, with exit code 2 and what was found, the SQLite file {@code from} (named {@code file})
   * when it holds something tunelab would not have written.
   */
  public static void check(Connection from, String file) throws SQLException {
    List<String> problems = new ArrayList<>();
    Map<String, String> known = tunelabObjects();
    for (Map.Entry<String, String> o : objects(from).entrySet()) {
      String type = known.get(o.getKey());
      if (type == null) {
        problems.add(o.getValue() + " " + o.getKey() + ", which tunelab does not create");
      } else if (!type.equals(o.getValue())) {
        problems.add(o.getKey() + " is a " + o.getValue() + " where tunelab has a " + type);
      }
    }
    if (problems.isEmpty()) {
      ids(from, problems);
      crossings(from, problems);
    }
    if (!problems.isEmpty()) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          file
              + " is not as tunelab writes its files: "
              + String.join("; ", problems)
              + "; nothing was imported");
    }
  }

  /** Every object of the schema this tunelab creates, by name, with its type. */
  private static Map<String, String> tunelabObjects() throws SQLException {
    try (Connection empty = DriverManager.getConnection("jdbc:sqlite::memory:")) {
      Migrations.apply(empty, SqlDialect.SQLITE, "1970-01-01T00:00:00Z");
      return objects(empty);
    }
  }

  private static Map<String, String> objects(Connection c) throws SQLException {
    Map<String, String> all = new LinkedHashMap<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(KNOWN_QUERY)) {
      while (rs.next()) {
        all.put(rs.getString(1), rs.getString(2));
      }
    }
    return all;
  }

  /** The ids a copy moves: each between 1 and {@link #MAX_ID}. */
  private static void ids(Connection c, List<String> problems) throws SQLException {
    List<String> tables = new ArrayList<>(List.of("experiments"));
    for (Table t : ExperimentCopy.TABLES) {
      if (t.idColumn() != null) {
        tables.add(t.name());
      }
    }
    for (String table : tables) {
      try (Statement st = c.createStatement();
          ResultSet rs =
              st.executeQuery(
                  "SELECT count(*) FROM " + table + " WHERE id < 1 OR id > " + MAX_ID)) {
        rs.next();
        if (rs.getLong(1) > 0) {
          problems.add(rs.getLong(1) + " row(s) of " + table + " with an id outside 1.." + MAX_ID);
        }
      }
    }
  }

  /**
   * Rows an experiment owns whose cell or trial is another experiment's: a copy would attach them
   * to the wrong experiment of the target.
   */
  private static void crossings(Connection c, List<String> problems) throws SQLException {
    for (Table t : ExperimentCopy.TABLES) {
      if (t.owner() != Owner.EXPERIMENT) {
        continue;
      }
      List<String> cols = ExperimentCopy.columns(c, SqlDialect.SQLITE, t.name());
      for (String parent : List.of("cell", "trial")) {
        if (!cols.contains(parent + "_id")) {
          continue;
        }
        try (PreparedStatement ps =
                c.prepareStatement(
                    "SELECT count(*) FROM "
                        + t.name()
                        + " x WHERE x."
                        + parent
                        + "_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "
                        + parent
                        + "s p WHERE p.id = x."
                        + parent
                        + "_id AND p.experiment_id = x.experiment_id)");
            ResultSet rs = ps.executeQuery()) {
          rs.next();
          if (rs.getLong(1) > 0) {
            problems.add(
                rs.getLong(1)
                    + " row(s) of "
                    + t.name()
                    + " whose "
                    + parent
                    + " is not their experiment's");
          }
        }
      }
    }
  }
}
