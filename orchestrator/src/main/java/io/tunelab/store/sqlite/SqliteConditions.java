package io.tunelab.store.sqlite;

import io.tunelab.store.RunConditions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads an experiment's {@link RunConditions}: host facts, and per cell the knobs' values. */
final class SqliteConditions {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{[^}]*}");

  private SqliteConditions() {}

  static RunConditions load(Transactions tx, long experimentId) {
    return tx.transaction(
        "read the conditions of experiment " + experimentId,
        c -> new RunConditions(facts(c, experimentId), knobs(c, experimentId)));
  }

  static Map<String, Map<String, String>> facts(Connection db, long id) throws SQLException {
    Map<String, Map<String, String>> byHost = new TreeMap<>();
    try (PreparedStatement ps =
        db.prepareStatement(
            "SELECT host, key, value FROM host_facts WHERE experiment_id = ? ORDER BY host, key")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          byHost
              .computeIfAbsent(rs.getString(1), h -> new TreeMap<>())
              .put(rs.getString(2), rs.getString(3));
        }
      }
    }
    return byHost;
  }

  private static Map<Integer, Map<String, String>> knobs(Connection db, long id)
      throws SQLException {
    Map<Integer, Map<String, String>> requested = new HashMap<>();
    try (PreparedStatement ps =
        db.prepareStatement(
            "SELECT c.ordinal, k.knob, k.value FROM cell_knobs k JOIN cells c ON c.id = k.cell_id"
                + " WHERE c.experiment_id = ? ORDER BY c.ordinal, k.pos")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          requested
              .computeIfAbsent(rs.getInt(1), o -> new LinkedHashMap<>())
              .put(rs.getString(2), rs.getString(3));
        }
      }
    }
    Map<Integer, Map<String, Set<String>>> ran = new HashMap<>();
    Map<String, Pattern> patterns = new HashMap<>();
    try (PreparedStatement ps =
        db.prepareStatement(
            "SELECT c.ordinal, s.role, s.knob, coalesce(s.effective, s.requested)"
                + " FROM settings s JOIN trials t ON t.id = s.trial_id"
                + " JOIN cells c ON c.id = t.cell_id"
                + " WHERE t.experiment_id = ? AND t.status = 'ok' AND t.warmup = 0")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          int ordinal = rs.getInt(1);
          String knob = rs.getString(2) + "." + rs.getString(3);
          String named =
              asWritten(knob, requested.getOrDefault(ordinal, Map.of()).keySet(), patterns);
          String value = rs.getString(4);
          ran.computeIfAbsent(ordinal, o -> new TreeMap<>())
              .computeIfAbsent(named, k -> new TreeSet<>())
              .add(value == null ? "" : value);
        }
      }
    }
    Map<Integer, Map<String, String>> byCell = new HashMap<>();
    Set<Integer> cells = new TreeSet<>(requested.keySet());
    cells.addAll(ran.keySet());
    for (int ordinal : cells) {
      Map<String, String> values = new TreeMap<>();
      requested.getOrDefault(ordinal, Map.of()).forEach(values::put);
      ran.getOrDefault(ordinal, Map.of()).forEach((k, v) -> values.put(k, String.join(", ", v)));
      byCell.put(ordinal, values);
    }
    return byCell;
  }

  /**
   * The cell's knob as written whose placeholders {@code resolved} fills, else {@code resolved}.
   */
  private static String asWritten(
      String resolved, Set<String> written, Map<String, Pattern> patterns) {
    if (written.contains(resolved)) {
      return resolved;
    }
    for (String w : written) {
      if (patterns.computeIfAbsent(w, SqliteConditions::pattern).matcher(resolved).matches()) {
        return w;
      }
    }
    return resolved;
  }

  private static Pattern pattern(String written) {
    StringBuilder regex = new StringBuilder();
    Matcher m = PLACEHOLDER.matcher(written);
    int from = 0;
    while (m.find()) {
      regex.append(Pattern.quote(written.substring(from, m.start()))).append(".+");
      from = m.end();
    }
    regex.append(Pattern.quote(written.substring(from)));
    return Pattern.compile(regex.toString());
  }
}
