package io.tunelab.store.postgres;

import io.tunelab.TunelabException;
import io.tunelab.store.sql.ExperimentCopy;
import io.tunelab.store.sql.ExperimentCopy.Owner;
import io.tunelab.store.sql.ExperimentCopy.Table;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Brings the server's copy of one experiment up to its run's local SQLite copy, from a thread of
 * its own: the run never waits for the server, and a server away (a restart, a network cut) is
 * waited out here while the trials go on. Each push sends, in one transaction, what changed since
 * the last one it committed: the experiment's row and small tables when they differ, each trial
 * whose row changed (or that is running) with every row it owns, the statistics of its cell, and
 * the events and boots added. Ids stay those of the server: the local copy was pulled from it.
 */
final class PostgresPush implements AutoCloseable {
  private static final List<String> SMALL = List.of("hosts", "host_facts", "variables");

  private final PostgresDatabase db;
  private final Path spool;
  private final long experimentId;
  private final Map<String, List<String>> columns = new HashMap<>();
  private final Map<String, String> pushed = new HashMap<>();
  private final Map<Long, String> trialRows = new HashMap<>();
  private final Map<Long, String> bootRows = new HashMap<>();
  private final Map<Long, Long> bootIds = new HashMap<>();
  private long lastEvent;

  private final Object lock = new Object();
  private long wanted;
  private long done;
  private boolean closing;
  private TunelabException failure;
  private final Thread thread;

  /** Starts pushing {@code experimentId}, which the server and {@code spool} now hold alike. */
  PostgresPush(PostgresDatabase db, Path spool, long experimentId) {
    this.db = db;
    this.spool = spool;
    this.experimentId = experimentId;
    db.transaction("read the columns of the experiment's tables", this::readColumns);
    State now = read();
    remember(now, Map.of());
    for (long id : now.boots.keySet()) {
      bootIds.put(id, id);
    }
    thread = new Thread(this::loop, "tunelab-push-" + experimentId);
    thread.setDaemon(true);
    thread.start();
  }

  /** Something changed in the local copy: a push follows (one for many changes in a row). */
  void changed() {
    synchronized (lock) {
      wanted++;
      lock.notifyAll();
    }
  }

  /**
   * Pushes what is left and stops; waits as long as the server is away, up to the retry budget.
   * Fails with exit code 3 when the server never took the last changes (the local copy keeps them).
   */
  @Override
  public void close() {
    synchronized (lock) {
      closing = true;
      wanted++;
      lock.notifyAll();
    }
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      db.close();
    }
    synchronized (lock) {
      if (failure != null) {
        throw failure;
      }
    }
  }

  private void loop() {
    while (true) {
      long target;
      synchronized (lock) {
        while (done == wanted && !closing) {
          try {
            lock.wait();
          } catch (InterruptedException e) {
            return;
          }
        }
        if (done == wanted) {
          return;
        }
        target = wanted;
      }
      TunelabException failed = null;
      try {
        pushOnce();
      } catch (TunelabException e) {
        failed = e;
      }
      synchronized (lock) {
        // A failed push is not lost: the next one compares with what the server last took.
        failure = failed;
        done = target;
        lock.notifyAll();
      }
      if (failed != null && closing) {
        return;
      }
    }
  }

  private void pushOnce() {
    State now = read();
    Map<Long, Long> newBoots = db.transaction("store the run's changes", c -> write(c, now));
    remember(now, newBoots);
  }

  private Void readColumns(Connection pg) throws SQLException {
    try (Connection local = PostgresPull.sqlite(spool)) {
      columns.put("experiments", PostgresPull.shared(pg, local, "experiments"));
      for (Table t : ExperimentCopy.TABLES) {
        columns.put(t.name(), PostgresPull.shared(pg, local, t.name()));
      }
    }
    return null;
  }

  /** The local copy at one point in time, as far as a push compares it. */
  private static final class State {
    Object[] experiment;
    final Map<String, List<Object[]>> small = new HashMap<>();
    final Map<Long, Object[]> trials = new LinkedHashMap<>();
    final Map<Long, Long> trialCells = new HashMap<>();
    final Map<String, List<Object[]>> trialChildren = new HashMap<>();
    final Map<Long, Object[]> cells = new HashMap<>();
    final List<Object[]> cellStats = new ArrayList<>();
    final List<Object[]> events = new ArrayList<>();
    final Map<Long, Object[]> boots = new LinkedHashMap<>();
    final Set<Long> changedTrials = new TreeSet<>();
    final Set<Long> changedCells = new TreeSet<>();
  }

  private State read() {
    try (Connection c = PostgresPull.sqlite(spool)) {
      State s = new State();
      s.experiment = rows(c, "experiments", "id = ?", experimentId).get(0);
      for (String t : SMALL) {
        s.small.put(t, rows(c, t, Owner.EXPERIMENT.where(), experimentId));
      }
      List<String> trialCols = columns.get("trials");
      int cellAt = trialCols.indexOf("cell_id");
      int statusAt = trialCols.indexOf("status");
      for (Object[] r : rows(c, "trials", Owner.EXPERIMENT.where(), experimentId)) {
        long id = ((Number) r[trialCols.indexOf("id")]).longValue();
        s.trials.put(id, r);
        s.trialCells.put(id, ((Number) r[cellAt]).longValue());
        if (!Arrays.deepToString(r).equals(trialRows.get(id)) || "running".equals(r[statusAt])) {
          s.changedTrials.add(id);
          s.changedCells.add(s.trialCells.get(id));
        }
      }
      for (Table t : ExperimentCopy.TABLES) {
        if (t.owner() == Owner.TRIAL) {
          List<Object[]> rows = new ArrayList<>();
          for (long trial : s.changedTrials) {
            rows.addAll(rows(c, t.name(), "trial_id = ?", trial));
          }
          s.trialChildren.put(t.name(), rows);
        }
      }
      for (long cell : s.changedCells) {
        s.cells.put(cell, rows(c, "cells", "id = ?", cell).get(0));
        s.cellStats.addAll(rows(c, "cell_stats", "cell_id = ?", cell));
      }
      s.events.addAll(rows(c, "events", "experiment_id = ? AND id > " + lastEvent, experimentId));
      int bootId = columns.get("boots").indexOf("id");
      for (Object[] r : rows(c, "boots", Owner.EXPERIMENT.where(), experimentId)) {
        s.boots.put(((Number) r[bootId]).longValue(), r);
      }
      c.rollback();
      return s;
    } catch (SQLException e) {
      throw new TunelabException(
          TunelabException.INTERNAL, "cannot read the run's local copy " + spool + ": " + e, e);
    }
  }

  private Map<Long, Long> write(Connection pg, State s) throws SQLException {
    if (!Arrays.deepToString(s.experiment).equals(pushed.get("experiments"))) {
      update(pg, "experiments", s.experiment, Set.of("id", "uuid"));
    }
    for (String t : SMALL) {
      List<Object[]> rows = s.small.get(t);
      if (!key(rows).equals(pushed.get(t))) {
        delete(pg, t, "experiment_id", experimentId);
        insert(pg, t, rows, Set.of());
      }
    }
    for (Object[] trial : changed(s.trials, s.changedTrials)) {
      update(pg, "trials", trial, Set.of("id"));
    }
    for (Table t : ExperimentCopy.TABLES) {
      if (t.owner() == Owner.TRIAL) {
        for (long trial : s.changedTrials) {
          delete(pg, t.name(), "trial_id", trial);
        }
        insert(pg, t.name(), s.trialChildren.get(t.name()), Set.of());
      }
    }
    for (long cell : s.changedCells) {
      update(pg, "cells", s.cells.get(cell), Set.of("id"));
      delete(pg, "cell_stats", "cell_id", cell);
    }
    insert(pg, "cell_stats", s.cellStats, Set.of());
    insert(pg, "events", s.events, Set.of("id"));
    Map<Long, Long> added = new HashMap<>();
    List<String> bootCols = columns.get("boots");
    for (Map.Entry<Long, Object[]> b : s.boots.entrySet()) {
      Long there = bootIds.get(b.getKey());
      if (there == null) {
        added.put(b.getKey(), insertReturningId(pg, "boots", b.getValue()));
      } else if (!Arrays.deepToString(b.getValue()).equals(bootRows.get(b.getKey()))) {
        Object[] row = b.getValue().clone();
        row[bootCols.indexOf("id")] = there;
        update(pg, "boots", row, Set.of("id"));
      }
    }
    return added;
  }

  /** After a commit: what the server now holds. */
  private void remember(State s, Map<Long, Long> newBoots) {
    pushed.put("experiments", Arrays.deepToString(s.experiment));
    for (String t : SMALL) {
      pushed.put(t, key(s.small.get(t)));
    }
    s.trials.forEach((id, row) -> trialRows.put(id, Arrays.deepToString(row)));
    s.boots.forEach((id, row) -> bootRows.put(id, Arrays.deepToString(row)));
    bootIds.putAll(newBoots);
    int eventId = columns.get("events").indexOf("id");
    for (Object[] e : s.events) {
      lastEvent = Math.max(lastEvent, ((Number) e[eventId]).longValue());
    }
  }

  private static List<Object[]> changed(Map<Long, Object[]> rows, Set<Long> ids) {
    List<Object[]> out = new ArrayList<>();
    for (long id : ids) {
      out.add(rows.get(id));
    }
    return out;
  }

  private static String key(List<Object[]> rows) {
    StringBuilder b = new StringBuilder();
    for (Object[] r : rows) {
      b.append(Arrays.deepToString(r)).append('\n');
    }
    return b.toString();
  }

  private List<Object[]> rows(Connection c, String table, String where, long arg)
      throws SQLException {
    List<String> cols = columns.get(table);
    List<Object[]> out = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT "
                + String.join(", ", cols)
                + " FROM "
                + table
                + " WHERE "
                + where
                + " ORDER BY rowid")) {
      ps.setLong(1, arg);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          Object[] r = new Object[cols.size()];
          for (int i = 0; i < r.length; i++) {
            r[i] = rs.getObject(i + 1);
          }
          out.add(r);
        }
      }
    }
    return out;
  }

  private void update(Connection pg, String table, Object[] row, Set<String> keep)
      throws SQLException {
    List<String> cols = columns.get(table);
    List<String> set = new ArrayList<>();
    for (String col : cols) {
      if (!keep.contains(col)) {
        set.add(col + " = ?");
      }
    }
    try (PreparedStatement ps =
        pg.prepareStatement(
            "UPDATE " + table + " SET " + String.join(", ", set) + " WHERE id = ?")) {
      int n = 1;
      for (int i = 0; i < cols.size(); i++) {
        if (!keep.contains(cols.get(i))) {
          ps.setObject(n++, row[i]);
        }
      }
      ps.setObject(n, row[cols.indexOf("id")]);
      ps.executeUpdate();
    }
  }

  private static void delete(Connection pg, String table, String column, long id)
      throws SQLException {
    try (PreparedStatement ps =
        pg.prepareStatement("DELETE FROM " + table + " WHERE " + column + " = ?")) {
      ps.setLong(1, id);
      ps.executeUpdate();
    }
  }

  private void insert(Connection pg, String table, List<Object[]> rows, Set<String> leaveOut)
      throws SQLException {
    if (rows.isEmpty()) {
      return;
    }
    List<String> cols = columns.get(table);
    List<String> named = new ArrayList<>(cols);
    named.removeAll(leaveOut);
    try (PreparedStatement ps =
        pg.prepareStatement(
            "INSERT INTO "
                + table
                + " ("
                + String.join(", ", named)
                + ") VALUES ("
                + "?, ".repeat(named.size() - 1)
                + "?)")) {
      int batch = 0;
      for (Object[] r : rows) {
        int n = 1;
        for (int i = 0; i < cols.size(); i++) {
          if (!leaveOut.contains(cols.get(i))) {
            ps.setObject(n++, r[i]);
          }
        }
        ps.addBatch();
        if (++batch % 1000 == 0) {
          ps.executeBatch();
        }
      }
      ps.executeBatch();
    }
  }

  private long insertReturningId(Connection pg, String table, Object[] row) throws SQLException {
    List<String> cols = new ArrayList<>(columns.get(table));
    int idAt = cols.indexOf("id");
    cols.remove(idAt);
    try (PreparedStatement ps =
        pg.prepareStatement(
            "INSERT INTO "
                + table
                + " ("
                + String.join(", ", cols)
                + ") VALUES ("
                + "?, ".repeat(cols.size() - 1)
                + "?)",
            new String[] {"id"})) {
      int n = 1;
      for (int i = 0; i < row.length; i++) {
        if (i != idAt) {
          ps.setObject(n++, row[i]);
        }
      }
      ps.executeUpdate();
      try (ResultSet keys = ps.getGeneratedKeys()) {
        keys.next();
        return keys.getLong(1);
      }
    }
  }
}
