package io.tunelab.store.sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Brings a database to the schema this tunelab knows: applies the bundled {@code V<n>__*.sql} files
 * not yet listed in {@code schema_version}, in order, in the caller's transaction, in the words of
 * its engine ({@link SqlDialect}).
 */
public final class Migrations {
  private static final Pattern NAME = Pattern.compile("V(\\d+)__[\\w.-]+\\.sql");

  /** The version that gave experiments their uuid, which older rows then get derived. */
  private static final int UUID_VERSION = 9;

  /** One bundled migration. */
  public record Migration(int version, String file) {}

  private Migrations() {}

  /** The bundled migrations by version. */
  public static List<Migration> bundled() {
    List<Migration> all = new ArrayList<>();
    for (String file : BundledSql.list("")) {
      Matcher m = NAME.matcher(file);
      if (m.matches()) {
        all.add(new Migration(Integer.parseInt(m.group(1)), file));
      }
    }
    if (all.isEmpty()) {
      // Without them every database would look up to date and stay empty.
      throw new IllegalStateException(
          "no schema migrations V<n>__*.sql in " + BundledSql.ROOT + " on the class path");
    }
    all.sort(Comparator.comparingInt(Migration::version));
    for (int i = 1; i < all.size(); i++) {
      if (all.get(i).version() == all.get(i - 1).version()) {
        throw new IllegalStateException("two migrations with version " + all.get(i).version());
      }
    }
    return all;
  }

  /** The highest version this tunelab knows. */
  public static int latestVersion() {
    List<Migration> all = bundled();
    return all.get(all.size() - 1).version();
  }

  /**
   * Applies what is missing; the caller holds a write transaction. Returns the versions applied.
   * Refuses a database written by a newer tunelab.
   */
  public static List<Integer> apply(Connection db, SqlDialect dialect, String now)
      throws SQLException {
    try (Statement st = db.createStatement()) {
      st.executeUpdate(
          "CREATE TABLE IF NOT EXISTS schema_version ("
              + "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)");
    }
    int current = currentVersion(db, dialect);
    List<Migration> bundled = bundled();
    int latest = bundled.get(bundled.size() - 1).version();
    if (current > latest) {
      throw new NewerSchemaException(current, latest);
    }
    List<Integer> applied = new ArrayList<>();
    for (Migration m : bundled) {
      if (m.version() <= current) {
        continue;
      }
      try (Statement st = db.createStatement()) {
        // executeUpdate runs every statement of the text: sqlite-jdbc hands it to sqlite3_exec,
        // pgjdbc sends it as one simple query (execute would run only SQLite's first).
        st.executeUpdate(dialect.schema(BundledSql.read(m.file())));
      }
      try (PreparedStatement ps =
          db.prepareStatement(
              "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)")) {
        ps.setInt(1, m.version());
        ps.setString(2, m.file());
        ps.setString(3, now);
        ps.executeUpdate();
      }
      applied.add(m.version());
    }
    if (!applied.isEmpty() && latest >= UUID_VERSION) {
      ExperimentUuids.backfill(db);
    }
    return applied;
  }

  /** The highest applied version, 0 for an empty database, -1 without a schema_version table. */
  public static int currentVersion(Connection db, SqlDialect dialect) throws SQLException {
    try (PreparedStatement ps = db.prepareStatement(dialect.tableExistsQuery())) {
      ps.setString(1, "schema_version");
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        if (rs.getInt(1) == 0) {
          return -1;
        }
      }
    }
    try (Statement st = db.createStatement();
        ResultSet rs = st.executeQuery("SELECT coalesce(max(version), 0) FROM schema_version")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  /** The database was written by a newer tunelab. */
  public static final class NewerSchemaException extends SQLException {
    /** The version the database holds. */
    public final int found;

    /** The highest version this tunelab knows. */
    public final int known;

    public NewerSchemaException(int found, int known) {
      super("schema version " + found + " is newer than " + known);
      this.found = found;
      this.known = known;
    }
  }
}
