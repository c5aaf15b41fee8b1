package io.tunelab.store;

import static io.tunelab.store.SqliteStatements.queryLong;
import static io.tunelab.store.SqliteStatements.update;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tunelab.plan.Cell;
import io.tunelab.plan.ExperimentPlan;
import io.tunelab.plan.Trial;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes what is known before the first trial: the experiment with its cells and pending trials,
 * then each host's facts and the variables that setup steps captured.
 */
final class SqlitePlanWriter {
  /** The {@code variables} row naming the open cell ({@link ResultStore#recordOpenCell}). */
  static final String OPEN_CELL = "@cell";

  private final SqliteTransactions tx;
  private final Timestamps time;
  private final ObjectMapper json = new ObjectMapper();

  SqlitePlanWriter(SqliteTransactions tx, Timestamps time) {
    this.tx = tx;
    this.time = time;
  }

  /** See {@link ResultStore#createExperiment}. */
  long createExperiment(ExperimentPlan e, String toolVersion) {
    return tx.transaction(
        "create experiment " + e.name(),
        c -> {
          // Batches of cells, params and knobs fill and flush independently; the foreign
          // keys are checked at commit instead (the pragma ends with the transaction).
          update(c, "PRAGMA defer_foreign_keys = ON");
          update(
              c,
              "INSERT INTO experiments (name, description, matrix_yaml, matrix_path,"
                  + " tool_version, order_mode, seed, repeat, warmup, created_at)"
                  + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
              e.name(),
              e.description(),
              e.matrixYaml(),
              e.matrixPath(),
              toolVersion,
              e.order() == null ? null : e.orderName(),
              e.seed(),
              e.repeat(),
              e.warmup(),
              time.now());
          long id = queryLong(c, "SELECT last_insert_rowid()");
          Map<Integer, Long> cellIds = insertCells(c, id, e.cells());
          try (SqliteBatch trials =
              new SqliteBatch(
                  c,
                  "INSERT INTO trials (experiment_id, cell_id, rep, seq, warmup)"
                      + " VALUES (?, ?, ?, ?, ?)")) {
            for (Trial t : e.trials()) {
              Long cellId = cellIds.get(t.cellOrdinal());
              if (cellId == null) {
                throw new IllegalArgumentException(
                    "trial " + t.seq() + " refers to no cell with ordinal " + t.cellOrdinal());
              }
              trials.add(id, cellId, t.rep(), t.seq(), t.warmup());
            }
          }
          return id;
        });
  }

  // Cell ids are assigned here rather than read back row by row: inside the write
  // transaction nobody else can insert, so max(id)+1… are free.
  private static Map<Integer, Long> insertCells(Connection c, long experimentId, List<Cell> cells)
      throws SQLException {
    long next = queryLong(c, "SELECT coalesce(max(id), 0) + 1 FROM cells");
    Map<Integer, Long> ids = new HashMap<>();
    try (SqliteBatch cellRows =
            new SqliteBatch(
                c, "INSERT INTO cells (id, experiment_id, ordinal, label) VALUES (?, ?, ?, ?)");
        SqliteBatch params =
            new SqliteBatch(
                c, "INSERT INTO cell_params (cell_id, name, value, pos) VALUES (?, ?, ?, ?)");
        SqliteBatch knobs =
            new SqliteBatch(
                c, "INSERT INTO cell_knobs (cell_id, knob, value, pos) VALUES (?, ?, ?, ?)")) {
      for (Cell cell : cells) {
        long cellId = next++;
        if (ids.put(cell.ordinal(), cellId) != null) {
          throw new IllegalArgumentException("two cells with ordinal " + cell.ordinal());
        }
        cellRows.add(cellId, experimentId, cell.ordinal(), cell.label());
        addEntries(params, cellId, cell.params());
        addEntries(knobs, cellId, cell.knobs());
      }
    }
    return ids;
  }

  private static void addEntries(SqliteBatch batch, long cellId, Map<String, String> entries)
      throws SQLException {
    if (entries == null) {
      return;
    }
    int pos = 1;
    for (Map.Entry<String, String> entry : entries.entrySet()) {
      batch.add(cellId, entry.getKey(), entry.getValue(), pos++);
    }
  }

  /** See {@link ResultStore#recordHost}. */
  void recordHost(long experimentId, String role, String host, Map<String, String> facts) {
    String factsJson;
    try {
      factsJson = json.writeValueAsString(facts);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("facts of " + host + " are not serialisable", e);
    }
    tx.transaction(
        "record host " + host,
        c -> {
          update(
              c,
              "INSERT OR REPLACE INTO hosts (experiment_id, role, host, kernel_release,"
                  + " boot_id, cpus, mem_kb, facts_json, recorded_at)"
                  + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
              experimentId,
              role,
              host,
              facts.get("kernel_release"),
              facts.get("boot_id"),
              wholeNumber(facts.get("cpus")),
              wholeNumber(facts.get("mem_kb")),
              factsJson,
              time.now());
          update(
              c, "DELETE FROM host_facts WHERE experiment_id = ? AND host = ?", experimentId, host);
          try (SqliteBatch rows =
              new SqliteBatch(
                  c,
                  "INSERT INTO host_facts (experiment_id, host, key, value) VALUES (?, ?, ?, ?)")) {
            for (Map.Entry<String, String> f : facts.entrySet()) {
              rows.add(experimentId, host, f.getKey(), f.getValue());
            }
          }
          return null;
        });
  }

  /** See {@link ResultStore#recordVariables}. */
  void recordVariables(long experimentId, Map<String, String> variables) {
    tx.transaction(
        "record variables",
        c -> {
          update(
              c,
              "DELETE FROM variables WHERE experiment_id = ? AND name NOT LIKE '@%'",
              experimentId);
          try (SqliteBatch rows =
              new SqliteBatch(
                  c, "INSERT INTO variables (experiment_id, name, value) VALUES (?, ?, ?)")) {
            for (Map.Entry<String, String> v : variables.entrySet()) {
              rows.add(experimentId, v.getKey(), v.getValue());
            }
          }
          return null;
        });
  }

  /**
   * See {@link ResultStore#recordOpenCell}. Kept in {@code variables} under names no variable can
   * have: {@code @cell} (the ordinal) and {@code @cell.NAME} (a capture).
   */
  void recordOpenCell(long experimentId, ResultStore.OpenCell cell) {
    tx.transaction(
        "record the open cell",
        c -> {
          update(
              c, "DELETE FROM variables WHERE experiment_id = ? AND name LIKE '@%'", experimentId);
          if (cell != null) {
            try (SqliteBatch rows =
                new SqliteBatch(
                    c, "INSERT INTO variables (experiment_id, name, value) VALUES (?, ?, ?)")) {
              rows.add(experimentId, OPEN_CELL, Integer.toString(cell.cellOrdinal()));
              for (Map.Entry<String, String> v : cell.captures().entrySet()) {
                rows.add(experimentId, OPEN_CELL + "." + v.getKey(), v.getValue());
              }
            }
          }
          return null;
        });
  }

  private static Long wholeNumber(String text) {
    if (text == null || !text.trim().matches("\\d{1,18}")) {
      return null;
    }
    return Long.parseLong(text.trim());
  }
}
