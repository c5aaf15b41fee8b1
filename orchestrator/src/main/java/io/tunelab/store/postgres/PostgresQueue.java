package io.tunelab.store.postgres;

import io.tunelab.Timestamps;
import io.tunelab.TunelabException;
import io.tunelab.plan.ExperimentPlan;
import io.tunelab.store.ExperimentQueue;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.StoredFile;
import io.tunelab.store.sqlite.JdbcResultStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The {@link ExperimentQueue} in PostgreSQL: a claim is one transaction that locks the first row it
 * may take with {@code FOR UPDATE SKIP LOCKED}, so that workers claiming at once never wait for nor
 * take the same row; leases are counted on the server's clock, so that the controllers' clocks need
 * not agree.
 */
public final class PostgresQueue implements ExperimentQueue {
  static final String NOW_MS = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint";

  /** The statuses of an experiment that has ended: its row is done, whoever held it. */
  private static final String ENDED =
      "('" + ExperimentStatus.FINISHED.text() + "', '" + ExperimentStatus.FAILED.text() + "')";

  /** One that never started may go to any testbed; one that did is its testbed's. */
  private static final String TESTBED_WHEN_BACK =
      "testbed = CASE WHEN (SELECT status FROM experiments WHERE id = queue.experiment_id) ="
          + " 'planned' THEN NULL ELSE testbed END";

  private static final String ENTRY_COLUMNS =
      "SELECT q.experiment_id, e.name, q.queue, q.state, e.status, q.testbed, q.worker,"
          + " q.lease_until - "
          + NOW_MS
          + ", q.claims, q.refusals, q.reason FROM queue q JOIN experiments e ON e.id ="
          + " q.experiment_id";

  private final PostgresUrl url;
  private final Map<String, String> env;
  private final Clock clock;
  private final Timestamps time;
  private final PostgresDatabase db;
  private final Object lock = new Object();
  private WorkerSpec worker;
  private Claim current;
  private final Set<Claim> lost = new HashSet<>();
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
  public long submit(
      ExperimentPlan plan, String toolVersion, String queue, List<StoredFile> files) {
    String now = time.now();
    // The plan, its files and its queue row in one transaction: no planned experiment without
    // its row, no row without what a worker needs to run it.
    try (JdbcResultStore store = PostgresResultStore.open(url, env, clock, null)) {
      return store.createExperiment(
          plan,
          toolVersion,
          (c, id) -> {
            for (StoredFile f : files) {
              update(
                  c,
                  "INSERT INTO experiment_files (experiment_id, path, kind, content)"
                      + " VALUES (?, ?, ?, ?)",
                  id,
                  f.path(),
                  f.kind(),
                  f.content());
            }
            update(
                c,
                "INSERT INTO queue (experiment_id, queue, submitted_at) VALUES (?, ?, ?)",
                id,
                queue,
                now);
          });
    }
  }

  @Override
  public void register(WorkerSpec spec) {
    synchronized (lock) {
      this.worker = spec;
    }
    String now = time.now();
    db.transaction(
        "register worker " + spec.name(),
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
                spec.name(),
                spec.queue(),
                spec.testbed(),
                now,
                now,
                spec.lease().toMillis()));
    // A renewal later than a third of the lease is no use: it gives up then, and its
    // connection does not wait longer for an answer either.
    Duration third = Duration.ofMillis(Math.max(1_000, spec.lease().toMillis() / 3));
    PostgresDatabase beat =
        PostgresDatabase.open(
            url, env, new PostgresDatabase.Session(false, third, third, null, null));
    heartbeat = new Thread(() -> beat(beat), "tunelab-heartbeat");
    heartbeat.setDaemon(true);
    heartbeat.start();
  }

  /** Renews the worker's lease and its experiment's, a third of a lease apart. */
  private void beat(PostgresDatabase beat) {
    try (beat) {
      while (true) {
        Claim held;
        synchronized (lock) {
          long until = System.nanoTime() + worker.lease().toMillis() / 3 * 1_000_000;
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
          if (!renew(beat, held)) {
            synchronized (lock) {
              lost.add(held);
            }
          }
        } catch (TunelabException e) {
          // The server is away: the lease may run out, and the agents' locks then keep a second
          // controller off this testbed's hosts.
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Whether the held claim, if any, is still this worker's. */
  private boolean renew(PostgresDatabase beat, Claim held) {
    String now = time.now();
    long lease = worker.lease().toMillis();
    return beat.transaction(
        "renew the lease of " + worker.name(),
        c -> {
          update(
              c,
              "UPDATE workers SET seen_at = ?, lease_until = " + NOW_MS + " + ? WHERE name = ?",
              now,
              lease,
              worker.name());
          return held == null
              || update(
                      c,
                      "UPDATE queue SET lease_until = "
                          + NOW_MS
                          + " + ? WHERE experiment_id = ? AND token = ? AND state = 'claimed'",
                      lease,
                      held.experimentId(),
                      held.token())
                  == 1;
        });
  }

  @Override
  public Optional<Claim> claim(String queue, String testbed, Set<Long> skip) {
    String now = time.now();
    String leaving =
        skip.isEmpty()
            ? ""
            : " AND q.experiment_id NOT IN ("
                + skip.stream().map(String::valueOf).collect(Collectors.joining(", "))
                + ")";
    String name = worker.name();
    long lease = worker.lease().toMillis();
    Optional<Claim> claim =
        db.transaction(
            "claim an experiment of queue " + queue,
            c -> {
              // A row left claimed or queued by an experiment that has ended (its worker died
              // between the end and the release) is done: it is never handed out again.
              update(
                  c,
                  "UPDATE queue SET state = 'done', done_at = ?, lease_until = NULL WHERE queue ="
                      + " ? AND (state = 'queued' OR (state = 'claimed' AND lease_until < "
                      + NOW_MS
                      + ")) AND experiment_id IN (SELECT id FROM experiments WHERE status IN "
                      + ENDED
                      + ")",
                  now,
                  queue);
              Claim found = null;
              try (PreparedStatement ps =
                  c.prepareStatement(
                      "SELECT q.experiment_id, e.name, q.claims, q.token FROM queue q"
                          + " JOIN experiments e ON e.id = q.experiment_id"
                          + " WHERE q.queue = ? AND (q.state = 'queued' OR (q.state = 'claimed'"
                          + " AND q.lease_until < "
                          + NOW_MS
                          + ")) AND (q.testbed IS NULL OR q.testbed = ?)"
                          + leaving
                          + " ORDER BY q.experiment_id LIMIT 1 FOR UPDATE OF q SKIP LOCKED")) {
                ps.setString(1, queue);
                ps.setString(2, testbed);
                try (ResultSet rs = ps.executeQuery()) {
                  if (rs.next()) {
                    found =
                        new Claim(rs.getLong(1), rs.getString(2), rs.getInt(3), rs.getLong(4) + 1);
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
                      + " + ?, claims = claims + 1, token = ? WHERE experiment_id = ?",
                  name,
                  testbed,
                  now,
                  lease,
                  found.token(),
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
                  name);
              return Optional.of(found);
            });
    claim.ifPresent(
        c -> {
          synchronized (lock) {
            current = c;
          }
        });
    return claim;
  }

  @Override
  public boolean release(Claim claim, Outcome outcome, String reason) {
    String now = time.now();
    long id = claim.experimentId();
    boolean changed =
        db.transaction(
            "release experiment " + id,
            c -> {
              int rows =
                  switch (outcome) {
                    case DONE ->
                        update(
                            c,
                            "UPDATE queue SET state = 'done', done_at = ?, lease_until = NULL,"
                                + " refusals = 0 WHERE experiment_id = ? AND state <> 'cancelled'"
                                + " AND ((token = ? AND state = 'claimed') OR (SELECT status FROM"
                                + " experiments WHERE id = ?) IN "
                                + ENDED
                                + ")",
                            now,
                            id,
                            claim.token(),
                            id);
                    case STOPPED ->
                        update(
                            c,
                            "UPDATE queue SET state = 'queued', lease_until = NULL, refusals = 0, "
                                + TESTBED_WHEN_BACK
                                + " WHERE experiment_id = ? AND token = ? AND state = 'claimed'",
                            id,
                            claim.token());
                    case REFUSED ->
                        update(
                            c,
                            "UPDATE queue SET state = CASE WHEN refusals + 1 >= ? THEN 'held' ELSE"
                                + " 'queued' END, refusals = refusals + 1, reason = ?, lease_until ="
                                + " NULL, "
                                + TESTBED_WHEN_BACK
                                + " WHERE experiment_id = ? AND token = ? AND state = 'claimed'",
                            worker.maxClaims(),
                            reason,
                            id,
                            claim.token());
                  };
              update(
                  c,
                  "UPDATE workers SET experiment_id = NULL, state = 'idle' WHERE name = ?",
                  worker.name());
              return rows == 1;
            });
    synchronized (lock) {
      current = null;
    }
    return changed;
  }

  @Override
  public boolean lost(Claim claim) {
    synchronized (lock) {
      return lost.contains(claim);
    }
  }

  @Override
  public Optional<String> sharedName(String testbed, Set<String> addresses) {
    String marks = String.join(", ", Collections.nCopies(addresses.size(), "?"));
    return db.transaction(
        "find testbed " + testbed + "'s hosts",
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT e.id, h.address FROM experiments e JOIN testbed_hosts h ON"
                      + " h.experiment_id = e.id WHERE e.testbed = ? AND h.address NOT IN ("
                      + marks
                      + ") ORDER BY e.id LIMIT 1")) {
            ps.setString(1, testbed);
            int i = 2;
            for (String a : addresses) {
              ps.setString(i++, a);
            }
            try (ResultSet rs = ps.executeQuery()) {
              return rs.next()
                  ? Optional.of("experiment " + rs.getLong(1) + " ran on " + rs.getString(2))
                  : Optional.<String>empty();
            }
          }
        });
  }

  @Override
  public Entry operate(long experimentId, Operation operation, String reason) {
    return db.transaction(
        operation.name().toLowerCase(Locale.ROOT) + " experiment " + experimentId,
        c -> {
          String state;
          try (PreparedStatement ps =
              c.prepareStatement("SELECT state FROM queue WHERE experiment_id = ? FOR UPDATE")) {
            ps.setLong(1, experimentId);
            try (ResultSet rs = ps.executeQuery()) {
              if (!rs.next()) {
                throw new TunelabException(
                    TunelabException.BAD_INPUT, "experiment " + experimentId + " is not queued");
              }
              state = rs.getString(1);
            }
          }
          Set<String> from =
              switch (operation) {
                case CANCEL -> Set.of("queued", "claimed", "held");
                case HOLD -> Set.of("queued", "claimed");
                case RELEASE -> Set.of("held");
              };
          if (!from.contains(state)) {
            throw new TunelabException(
                TunelabException.BAD_INPUT,
                "experiment "
                    + experimentId
                    + " is "
                    + state
                    + ": only one that is "
                    + String.join(" or ", new TreeSet<>(from))
                    + " can be "
                    + PAST.get(operation));
          }
          // A new token takes a claimed row from its worker: its next transaction is refused.
          if (operation == Operation.RELEASE) {
            update(
                c,
                "UPDATE queue SET state = 'queued', refusals = 0, reason = NULL"
                    + " WHERE experiment_id = ?",
                experimentId);
          } else {
            update(
                c,
                "UPDATE queue SET state = ?, token = token + 1, lease_until = NULL, reason = ?"
                    + " WHERE experiment_id = ?",
                operation == Operation.CANCEL ? "cancelled" : "held",
                reason,
                experimentId);
          }
          return readEntries(c, " WHERE q.experiment_id = ?", experimentId).get(0);
        });
  }

  private static final Map<Operation, String> PAST =
      Map.of(Operation.CANCEL, "cancelled", Operation.HOLD, "held", Operation.RELEASE, "released");

  @Override
  public List<Entry> entries(String queue) {
    return db.transaction(
        "read the queue",
        c -> queue == null ? readEntries(c, "") : readEntries(c, " WHERE q.queue = ?", queue));
  }

  private static List<Entry> readEntries(Connection c, String where, Object... args)
      throws SQLException {
    List<Entry> all = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(ENTRY_COLUMNS + where + " ORDER BY q.experiment_id")) {
      for (int i = 0; i < args.length; i++) {
        ps.setObject(i + 1, args[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          long left = rs.getLong(8);
          Long leaseLeft = rs.wasNull() ? null : left;
          all.add(
              new Entry(
                  rs.getLong(1),
                  rs.getString(2),
                  rs.getString(3),
                  rs.getString(4),
                  rs.getString(5),
                  rs.getString(6),
                  rs.getString(7),
                  leaseLeft,
                  rs.getInt(9),
                  rs.getInt(10),
                  rs.getString(11)));
        }
      }
    }
    return all;
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
        beat.join(Math.max(1_000, worker.lease().toMillis()));
        db.transaction(
            "stop worker " + worker.name(),
            c ->
                update(
                    c,
                    "UPDATE workers SET state = 'stopped', experiment_id = NULL WHERE name = ?",
                    worker.name()));
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
