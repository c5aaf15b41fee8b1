package io.tunelab.store.sqlite;

import io.tunelab.store.CellSettings;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/** Reads what one cell set on its hosts ({@link CellSettings}) and which cell a search won. */
final class SqliteCellSettings {
  private SqliteCellSettings() {}

  static OptionalInt winner(Transactions tx, long experimentId) {
    return tx.transaction(
        "read the winner of experiment " + experimentId, c -> winner(c, experimentId));
  }

  static Optional<CellSettings> load(Transactions tx, long experimentId, int ordinal) {
    return tx.transaction(
        "read the settings of cell " + ordinal + " of experiment " + experimentId,
        c -> {
          long cellId;
          String label;
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT id, label FROM cells WHERE experiment_id = ? AND ordinal = ?")) {
            ps.setLong(1, experimentId);
            ps.setInt(2, ordinal);
            try (ResultSet rs = ps.executeQuery()) {
              if (!rs.next()) {
                return Optional.empty();
              }
              cellId = rs.getLong(1);
              label = rs.getString(2);
            }
          }
          OptionalInt winner = winner(c, experimentId);
          return Optional.of(
              new CellSettings(
                  experimentId,
                  SqliteCellColumns.name(c, experimentId),
                  ordinal,
                  label,
                  winner.isPresent() && winner.getAsInt() == ordinal,
                  params(c, cellId),
                  settings(c, cellId),
                  SqliteConditions.facts(c, experimentId)));
        });
  }

  private static OptionalInt winner(Connection c, long experimentId) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT c.ordinal FROM search_rounds r JOIN cells c ON c.id = r.cell_id"
                + " WHERE r.experiment_id = ? AND r.state = 'winner'"
                + " ORDER BY r.round DESC, c.ordinal LIMIT 1")) {
      ps.setLong(1, experimentId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? OptionalInt.of(rs.getInt(1)) : OptionalInt.empty();
      }
    }
  }

  private static Map<String, String> params(Connection c, long cellId) throws SQLException {
    Map<String, String> params = new LinkedHashMap<>();
    try (PreparedStatement ps =
        c.prepareStatement("SELECT name, value FROM cell_params WHERE cell_id = ? ORDER BY pos")) {
      ps.setLong(1, cellId);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          params.put(rs.getString(1), rs.getString(2));
        }
      }
    }
    return params;
  }

  /** What the cell's last ok, measured trial applied. */
  private static List<CellSettings.Setting> settings(Connection c, long cellId)
      throws SQLException {
    List<CellSettings.Setting> settings = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT role, host, knob, path, requested FROM settings WHERE trial_id ="
                + " (SELECT max(id) FROM trials WHERE cell_id = ? AND status = 'ok'"
                + " AND warmup = 0) ORDER BY role, knob")) {
      ps.setLong(1, cellId);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          settings.add(
              new CellSettings.Setting(
                  rs.getString(1),
                  rs.getString(2),
                  rs.getString(3),
                  rs.getString(4),
                  rs.getString(5)));
        }
      }
    }
    return settings;
  }
}
