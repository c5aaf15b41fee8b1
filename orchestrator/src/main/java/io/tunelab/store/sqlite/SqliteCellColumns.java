package io.tunelab.store.sqlite;

import io.tunelab.TunelabException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What every exported row repeats from its experiment and cell: the experiment's name, the cell's
 * ordinal and label, and its value of every parameter and knob any cell of the experiment has. Held
 * in memory: it grows with the cells, not with the rows.
 */
final class SqliteCellColumns {
  /** What one cell's rows repeat. */
  record Columns(int ordinal, String label, List<String> params, List<String> knobs) {}

  final String experiment;
  final List<String> paramNames;
  final List<String> knobNames;
  private final Map<Long, Columns> byId;

  private SqliteCellColumns(
      String experiment, List<String> paramNames, List<String> knobNames, Map<Long, Columns> byId) {
    this.experiment = experiment;
    this.paramNames = paramNames;
    this.knobNames = knobNames;
    this.byId = byId;
  }

  /** Reads the experiment's cells; an unknown experiment fails with exit code 2. */
  static SqliteCellColumns read(Connection db, long experimentId) throws SQLException {
    String name = name(db, experimentId);
    List<SqliteCellReader.StoredCell> cells = new SqliteCellReader(db).stored(experimentId);
    Set<String> params = new LinkedHashSet<>();
    Set<String> knobs = new LinkedHashSet<>();
    for (SqliteCellReader.StoredCell c : cells) {
      params.addAll(c.cell().params().keySet());
      knobs.addAll(c.cell().knobs().keySet());
    }
    List<String> paramNames = List.copyOf(params);
    List<String> knobNames = List.copyOf(knobs);
    Map<Long, Columns> byId = new HashMap<>();
    for (SqliteCellReader.StoredCell c : cells) {
      byId.put(
          c.id(),
          new Columns(
              c.cell().ordinal(),
              c.cell().label(),
              values(c.cell().params(), paramNames),
              values(c.cell().knobs(), knobNames)));
    }
    return new SqliteCellColumns(name, paramNames, knobNames, byId);
  }

  /** The columns of the cell with this row id. */
  Columns of(long cellId) {
    return byId.get(cellId);
  }

  private static List<String> values(Map<String, String> entries, List<String> names) {
    List<String> values = new ArrayList<>(names.size());
    for (String n : names) {
      values.add(entries.get(n));
    }
    // Values may be null (a knob only some cases set), which List.copyOf refuses.
    return Collections.unmodifiableList(values);
  }

  /** The experiment's name; an unknown experiment fails with exit code 2. */
  static String name(Connection db, long id) throws SQLException {
    try (PreparedStatement ps = db.prepareStatement("SELECT name FROM experiments WHERE id = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new TunelabException(TunelabException.BAD_INPUT, "no experiment " + id);
        }
        return rs.getString(1);
      }
    }
  }
}
