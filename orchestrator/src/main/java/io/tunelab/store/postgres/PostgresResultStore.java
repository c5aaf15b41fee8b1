package io.tunelab.store.postgres;

import io.tunelab.store.ExperimentQueue.Claim;
import io.tunelab.store.ResultReader;
import io.tunelab.store.sqlite.JdbcResultReader;
import io.tunelab.store.sqlite.JdbcResultStore;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Opens the store of a PostgreSQL database: the same {@link JdbcResultStore} an SQLite file gets,
 * on {@link PostgresDatabase}'s transactions. Every write goes to the server in its own
 * transaction; nothing is kept locally but the trial commits the server refused past the wait.
 */
public final class PostgresResultStore {
  private PostgresResultStore() {}

  /**
   * Connects and migrates the schema; the experiments the store creates record {@code testbed} (may
   * be null).
   */
  public static JdbcResultStore open(
      PostgresUrl url, Map<String, String> env, Clock clock, String testbed) {
    return JdbcResultStore.on(PostgresSchema.openWritable(url, env, clock), clock, testbed, -1);
  }

  /**
   * As {@link #open}, for a worker's run of {@code claim}: every transaction is refused ({@link
   * io.tunelab.store.ClaimLost}) once the claim is no longer the queue row's.
   */
  public static JdbcResultStore openClaimed(
      PostgresUrl url, Map<String, String> env, Clock clock, String testbed, Claim claim) {
    return JdbcResultStore.on(
        PostgresSchema.openFenced(url, env, clock, claim), clock, testbed, -1);
  }

  /**
   * As {@link #open}, listing experiment {@code id} only among its experiments: what {@code
   * restore} tears down on a database many testbeds share.
   */
  public static JdbcResultStore openOn(
      PostgresUrl url, Map<String, String> env, Clock clock, long id) {
    return JdbcResultStore.on(PostgresSchema.openWritable(url, env, clock), clock, null, id);
  }

  /** Connects for reading only; the queries run on the server. */
  public static ResultReader openReader(PostgresUrl url, Map<String, String> env) {
    return JdbcResultReader.on(PostgresSchema.openReadOnly(url, env));
  }

  /**
   * The experiments {@code testbed} left {@code running} that no worker holds a live lease on and
   * whose recorded hosts are all at {@code addresses}: a controller of this testbed died with them.
   * One of another testbed that shares the name is not among them.
   */
  public static List<Long> leftRunning(
      PostgresUrl url,
      Map<String, String> env,
      Clock clock,
      String testbed,
      Set<String> addresses) {
    String marks = String.join(", ", Collections.nCopies(addresses.size(), "?"));
    try (PostgresDatabase db = PostgresSchema.openWritable(url, env, clock)) {
      return db.transaction(
          "find the experiments testbed " + testbed + " left running",
          c -> {
            List<Long> ids = new ArrayList<>();
            try (PreparedStatement ps =
                c.prepareStatement(
                    "SELECT e.id FROM experiments e LEFT JOIN queue q ON q.experiment_id = e.id"
                        + " WHERE e.status = 'running' AND e.testbed = ? AND (q.state IS NULL"
                        + " OR q.state <> 'claimed' OR q.lease_until < "
                        + PostgresQueue.NOW_MS
                        + ") AND NOT EXISTS (SELECT 1 FROM testbed_hosts h WHERE"
                        + " h.experiment_id = e.id AND h.address NOT IN ("
                        + marks
                        + ")) ORDER BY e.id")) {
              ps.setString(1, testbed);
              int i = 2;
              for (String a : addresses) {
                ps.setString(i++, a);
              }
              try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                  ids.add(rs.getLong(1));
                }
              }
            }
            return ids;
          });
    }
  }
}
