package io.tunelab.store.sqlite;

import io.tunelab.plan.Cell;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads an experiment's cells back with their parameters and knobs in the order written. */
final class SqliteCellReader {
  private final Connection db;

  SqliteCellReader(Connection db) {
    this.db = db;
  }

  /** A cell with its row id. */
  record StoredCell(long id, Cell cell) {}

  /** The cells by ordinal. */
  List<Cell> cells(long experimentId) throws SQLException {
    return stored(experimentId).stream().map(StoredCell::cell).toList();
  }

  /** The cells by ordinal with their ids; three queries whatever the number of cells. */
  List<StoredCell> stored(long experimentId) throws SQLException {
    Map<Long, Map<String, String>> params =
        entries(
            "SELECT p.cell_id, p.name, p.value FROM cell_params p JOIN cells c ON c.id = p.cell_id"
                + " WHERE c.experiment_id = ? ORDER BY p.cell_id, p.pos",
            experimentId);
    Map<Long, Map<String, String>> knobs =
        entries(
            "SELECT k.cell_id, k.knob, k.value FROM cell_knobs k JOIN cells c ON c.id = k.cell_id"
                + " WHERE c.experiment_id = ? ORDER BY k.cell_id, k.pos",
            experimentId);
    List<StoredCell> cells = new ArrayList<>();
    try (PreparedStatement ps =
        db.prepareStatement(
            "SELECT id, ordinal, label FROM cells WHERE experiment_id = ? ORDER BY ordinal")) {
      ps.setLong(1, experimentId);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          long id = rs.getLong(1);
          cells.add(
              new StoredCell(
                  id,
                  new Cell(
                      rs.getInt(2),
                      rs.getString(3),
                      params.getOrDefault(id, Map.of()),
                      knobs.getOrDefault(id, Map.of()),
                      Map.of())));
        }
      }
    }
    return cells;
  }

  private Map<Long, Map<String, String>> entries(String sql, long experimentId)
      throws SQLException {
    Map<Long, Map<String, String>> byCell = new HashMap<>();
    try (PreparedStatement ps = db.prepareStatement(sql)) {
      ps.setLong(1, experimentId);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          byCell
              .computeIfAbsent(rs.getLong(1), id -> new LinkedHashMap<>())
              .put(rs.getString(2), rs.getString(3));
        }
      }
    }
    return byCell;
  }
}
