package io.tunelab.store.postgres;

import io.tunelab.TunelabException;
import io.tunelab.plan.ExperimentPlan;
import io.tunelab.store.ExperimentQueue;
import io.tunelab.store.sql.Timestamps;
import io.tunelab.store.sqlite.JdbcResultStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@link ExperimentQueue} in PostgreSQL: a claim is one transaction that locks the first row it
 * may take with {@code FOR UPDATE SKIP LOCKED}, so that workers claiming at once never wait for nor
 * take the same row; leases are counted on the server's clock, so that the controllers' clocks need
 * not agree.
 */
public final class PostgresQueue implements ExperimentQueue {
  static final String NOW_MS = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint";

  private final PostgresUrl url;
  private final Map<String, String> env;
  private final Clock clock;
  private final Timestamps time;
  private final PostgresDatabase db;
  private final Object lock = new Object();
  private String worker;
  private long leaseMillis;
  private long current = -1;
  private boolean closed;
  private Thread heartbeat;

  private PostgresQueue(
      PostgresUrl url, Map<String, String> env, Clock clock, PostgresDatabase db) {
    this.url = url;
    this.env = env;
    this.clock = clock;
    this.time = new Timestamps(clock);
    this.db = db;
  }

  /** Connects and migrates the schema. */
  public static PostgresQueue open(PostgresUrl url, Map<String, String> env, Clock clock) {
    return new PostgresQueue(url, env, clock, PostgresSchema.openWritable(url, env, clock));
  }

  @Override
  public long submit(ExperimentPlan plan, String toolVersion, String queue) {
    String now = time.now();
    // The plan and its queue row in one transaction: no planned experiment without its row.
    try (JdbcResultStore store = PostgresResultStore.open(url, env, clock, null)) {
      return store.createExperiment(
          plan,
          toolVersion,
          (c, id) ->
              update(
                  c,
                  "INSERT INTO queue (experiment_id, queue, submitted_at) VALUES (?, ?, ?)",
                  id,
                  queue,
                  now));
    }
  }

  @Override
  public void register(String worker, String queue, String testbed, Duration lease) {
    synchronized (lock) {
      this.worker = worker;
      this.leaseMillis = lease.toMillis();
    }
    String now = time.now();
    db.transaction(
        "register worker " + worker,
        c ->
            update(
                c,
                "INSERT INTO workers (name, queue, testbed, started_at, seen_at, lease_until,"
                    + " state) VALUES (?, ?, ?, ?, ?, "
                    + NOW_MS
                    + " + ?, 'idle') ON CONFLICT (name) DO UPDATE SET queue = excluded.queue,"
                    + " testbed = excluded.testbed, started_at = excluded.started_at, seen_at ="
                    + " excluded.seen_at, lease_until = excluded.lease_until, experiment_id ="
                    + " NULL, state = 'idle'",
                worker,
                queue,
                testbed,
                now,
                now,
                lease.toMillis()));
    // A renewal later than a third of the lease is no use: it gives up then, and its
    // connection does not wait longer for an answer either.
    Duration third = Duration.ofMillis(Math.max(1_000, lease.toMillis() / 3));
    PostgresDatabase beat =
        PostgresDatabase.open(url, env, new PostgresDatabase.Session(false, third, third, null));
    heartbeat = new Thread(() -> beat(beat), "tunelab-heartbeat");
    heartbeat.setDaemon(true);
    heartbeat.start();
  }

  /** Renews the worker's lease and its experiment's, a third of a lease apart. */
  private void beat(PostgresDatabase beat) {
    try (beat) {
      while (true) {
        long held;
        synchronized (lock) {
          long until = System.nanoTime() + leaseMillis / 3 * 1_000_000;
          long left;
          while (!closed && (left = until - System.nanoTime()) > 0) {
            lock.wait(Math.max(1, left / 1_000_000));
          }
          if (closed) {
            return;
          }
          held = current;
        }
        try {
          renew(beat, held);
        } catch (TunelabException e) {
          // The server is away: the lease may run out, and the agents' locks then keep a second
          // controller off this testbed's hosts.
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void renew(PostgresDatabase beat, long held) {
    String now = time.now();
    beat.transaction(
        "renew the lease of " + worker,
        c -> {
          update(
              c,
              "UPDATE workers SET seen_at = ?, lease_until = " + NOW_MS + " + ? WHERE name = ?",
              now,
              leaseMillis,
              worker);
          if (held >= 0) {
            update(
                c,
                "UPDATE queue SET lease_until = "
                    + NOW_MS
                    + " + ? WHERE experiment_id = ? AND worker = ? AND state = 'claimed'",
                leaseMillis,
                held,
                worker);
          }
          return null;
        });
  }

  @Override
  public Optional<Claim> claim(String queue, String testbed) {
    String now = time.now();
    Optional<Claim> claim =
        db.transaction(
            "claim an experiment of queue " + queue,
            c -> {
              Claim found = null;
              try (PreparedStatement ps =
                  c.prepareStatement(
                      "SELECT q.experiment_id, e.name, q.claims FROM queue q"
                          + " JOIN experiments e ON e.id = q.experiment_id"
                          + " WHERE q.queue = ? AND (q.state = 'queued' OR (q.state = 'claimed'"
                          + " AND q.lease_until < "
                          + NOW_MS
                          + ")) AND (q.testbed IS NULL OR q.testbed = ?)"
                          + " ORDER BY q.experiment_id LIMIT 1 FOR UPDATE OF q SKIP LOCKED")) {
                ps.setString(1, queue);
                ps.setString(2, testbed);
                try (ResultSet rs = ps.executeQuery()) {
                  if (rs.next()) {
                    found = new Claim(rs.getLong(1), rs.getString(2), rs.getInt(3));
                  }
                }
              }
              if (found == null) {
                return Optional.<Claim>empty();
              }
              update(
                  c,
                  "UPDATE queue SET state = 'claimed', worker = ?, testbed = ?, claimed_at = ?,"
                      + " lease_until = "
                      + NOW_MS
                      + " + ?, claims = claims + 1 WHERE experiment_id = ?",
                  worker,
                  testbed,
                  now,
                  leaseMillis,
                  found.experimentId());
              update(
                  c,
                  "UPDATE experiments SET testbed = ? WHERE id = ?",
                  testbed,
                  found.experimentId());
              update(
                  c,
                  "UPDATE workers SET experiment_id = ?, state = 'running' WHERE name = ?",
                  found.experimentId(),
                  worker);
              return Optional.of(found);
            });
    claim.ifPresent(
        c -> {
          synchronized (lock) {
            current = c.experimentId();
          }
        });
    return claim;
  }

  @Override
  public void release(long experimentId, boolean done) {
    String now = time.now();
    db.transaction(
        "release experiment " + experimentId,
        c -> {
          if (done) {
            update(
                c,
                "UPDATE queue SET state = 'done', done_at = ?, lease_until = NULL"
                    + " WHERE experiment_id = ? AND worker = ?",
                now,
                experimentId,
                worker);
          } else {
            // One that never started may go to any testbed; one that did is its testbed's.
            update(
                c,
                "UPDATE queue SET state = 'queued', lease_until = NULL, testbed = CASE WHEN"
                    + " (SELECT status FROM experiments WHERE id = ?) = 'planned' THEN NULL ELSE"
                    + " testbed END WHERE experiment_id = ? AND worker = ?",
                experimentId,
                experimentId,
                worker);
          }
          update(
              c, "UPDATE workers SET experiment_id = NULL, state = 'idle' WHERE name = ?", worker);
          return null;
        });
    synchronized (lock) {
      current = -1;
    }
  }

  @Override
  public List<Entry> entries() {
    return db.transaction(
        "read the queue",
        c -> {
          List<Entry> all = new ArrayList<>();
          try (PreparedStatement ps =
                  c.prepareStatement(
                      "SELECT q.experiment_id, e.name, q.queue, q.state, e.status, q.testbed,"
                          + " q.worker, q.lease_until - "
                          + NOW_MS
                          + ", q.claims FROM queue q JOIN experiments e ON e.id ="
                          + " q.experiment_id ORDER BY q.experiment_id");
              ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              long left = rs.getLong(8);
              all.add(
                  new Entry(
                      rs.getLong(1),
                      rs.getString(2),
                      rs.getString(3),
                      rs.getString(4),
                      rs.getString(5),
                      rs.getString(6),
                      rs.getString(7),
                      rs.wasNull() ? null : left,
                      rs.getInt(9)));
            }
          }
          return all;
        });
  }

  @Override
  public List<Worker> workers() {
    return db.transaction(
        "read the workers",
        c -> {
          List<Worker> all = new ArrayList<>();
          try (PreparedStatement ps =
                  c.prepareStatement(
                      "SELECT name, queue, testbed, state, experiment_id, seen_at, lease_until - "
                          + NOW_MS
                          + " FROM workers ORDER BY started_at, name");
              ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              long id = rs.getLong(5);
              Long experiment = rs.wasNull() ? null : id;
              all.add(
                  new Worker(
                      rs.getString(1),
                      rs.getString(2),
                      rs.getString(3),
                      rs.getString(4),
                      experiment,
                      rs.getString(6),
                      rs.getLong(7)));
            }
          }
          return all;
        });
  }

  @Override
  public void close() {
    Thread beat;
    synchronized (lock) {
      closed = true;
      lock.notifyAll();
      beat = heartbeat;
    }
    try {
      if (beat != null) {
        // The heartbeat gives up on a server away within a third of the lease.
        beat.join(Math.max(1_000, leaseMillis));
        db.transaction(
            "stop worker " + worker,
            c ->
                update(
                    c,
                    "UPDATE workers SET state = 'stopped', experiment_id = NULL WHERE name = ?",
                    worker));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      db.close();
    }
  }

  /** One statement with its arguments bound; how many rows it changed. */
  static int update(Connection c, String sql, Object... args) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setObject(i + 1, args[i]);
      }
      return ps.executeUpdate();
    }
  }
}
