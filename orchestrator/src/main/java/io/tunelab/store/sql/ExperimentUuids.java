package io.tunelab.store.sql;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The uuid that names an experiment in every database: random for a new one; for one planned before
 * experiments had a uuid, derived from what its rows hold, so every copy of that older file names
 * it alike and importing two copies adds it once.
 */
public final class ExperimentUuids {
  private ExperimentUuids() {}

  /** A uuid for an experiment being planned now. */
  public static String fresh() {
    return UUID.randomUUID().toString();
  }

  /** The uuid of an experiment stored without one, from its own columns. */
  public static String derived(long id, String createdAt, String name, String matrixYaml) {
    String key = "tunelab experiment\n" + id + "\n" + createdAt + "\n" + name + "\n" + matrixYaml;
    return UUID.nameUUIDFromBytes(key.getBytes(StandardCharsets.UTF_8)).toString();
  }

  /**
   * Gives every experiment without a uuid its derived one; the caller holds a write transaction.
   */
  public static void backfill(Connection c) throws SQLException {
    List<Object[]> missing = new ArrayList<>();
    try (PreparedStatement ps =
            c.prepareStatement(
                "SELECT id, created_at, name, matrix_yaml FROM experiments WHERE uuid IS NULL");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        missing.add(
            new Object[] {
              derived(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4)),
              rs.getLong(1)
            });
      }
    }
    try (PreparedStatement ps =
        c.prepareStatement("UPDATE experiments SET uuid = ? WHERE id = ?")) {
      for (Object[] row : missing) {
        ps.setString(1, (String) row[0]);
        ps.setLong(2, (Long) row[1]);
        ps.executeUpdate();
      }
    }
  }
}
