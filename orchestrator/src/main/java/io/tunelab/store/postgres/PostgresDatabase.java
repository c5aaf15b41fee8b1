package io.tunelab.store.postgres;

import io.tunelab.Backoff;
import io.tunelab.TunelabException;
import io.tunelab.store.ClaimLost;
import io.tunelab.store.ExperimentQueue.Claim;
import io.tunelab.store.ResultTable;
import io.tunelab.store.sql.QueryRows;
import io.tunelab.store.sql.SqlDialect;
import io.tunelab.store.sqlite.StorageFailure;
import io.tunelab.store.sqlite.Transactions;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;

/**
 * The {@link Transactions} of a tunelab PostgreSQL database. A transaction that loses its
 * connection (a server restart, a network cut, a server that stopped answering for the socket
 * timeout) or meets a deadlock is rolled back by the server; it runs again whole on a new
 * connection until the wait budget is spent, as a locked SQLite file is waited out. Connecting,
 * logging in and every read of the socket have their own limits: no call waits for ever.
 */
public final class PostgresDatabase extends Transactions {
  /** How long one answer of the server may take before the connection counts as lost. */
  static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(60);

  private static final Duration FIRST_PAUSE = Duration.ofMillis(200);

  /**
   * How a connection is used: whether it may write, how long one answer may take, how long a
   * transaction is retried, and the session settings ({@code -c name=value …}, libpq's {@code
   * options}; none when null).
   */
  record Session(
      boolean readOnly, Duration socketTimeout, Duration budget, String options, Claim fence) {
    /** A run's, an import's or the queue's: retried for {@code TUNELAB_DB_WAIT}. */
    static Session of(boolean readOnly, Map<String, String> env) {
      return new Session(readOnly, SOCKET_TIMEOUT, waitBudget(env), null, null);
    }

    /**
     * This session, each of whose transactions first checks that {@code claim} is still the queue
     * row's and refuses to go on ({@link ClaimLost}) when it is not.
     */
    Session fencedBy(Claim claim) {
      return new Session(readOnly, socketTimeout, budget, options, claim);
    }
  }

  private final PostgresUrl url;
  private final Map<String, String> env;
  private final Session session;
  private Connection db;

  private PostgresDatabase(PostgresUrl url, Map<String, String> env, Session session) {
    super(SqlDialect.POSTGRESQL);
    this.url = url;
    this.env = env;
    this.session = session;
  }

  /**
   * Connects now, so that a wrong URL or password fails before anything else is done; transactions
   * are retried for {@code TUNELAB_DB_WAIT}.
   */
  public static PostgresDatabase open(PostgresUrl url, Map<String, String> env, boolean readOnly) {
    return open(url, env, Session.of(readOnly, env));
  }

  /** As {@link #open(PostgresUrl, Map, boolean)}, used as {@code session} says. */
  static PostgresDatabase open(PostgresUrl url, Map<String, String> env, Session session) {
    PostgresDatabase d = new PostgresDatabase(url, env, session);
    try {
      d.db = d.connect();
    } catch (SQLException e) {
      throw new TunelabException(
          TunelabException.HOST_REFUSED, "cannot connect to database " + url + ": " + reason(e), e);
    }
    return d;
  }

  /** The database, as the user may be told it (no password). */
  public PostgresUrl url() {
    return url;
  }

  @Override
  public String location() {
    return url.toString();
  }

  /**
   * {@code $XDG_STATE_HOME/tunelab/pending/HOST_PORT_DB} ({@code ~/.local/state} by default): the
   * user's own, durable, one directory per database.
   */
  @Override
  public Path keptTrialsDirectory() {
    return keptTrialsDirectory(url, env);
  }

  static Path keptTrialsDirectory(PostgresUrl url, Map<String, String> env) {
    String state = env.get("XDG_STATE_HOME");
    Path base =
        state != null && !state.isBlank()
            ? Path.of(state)
            : Path.of(System.getProperty("user.home"), ".local", "state");
    String name =
        (url.host() + "_" + url.port() + "_" + url.database()).replaceAll("[^\\w.-]", "_");
    return base.resolve("tunelab").resolve("pending").resolve(name);
  }

  /** Runs one statement of tunelab's own (status's table) and reads all its rows. */
  @Override
  public ResultTable query(String sql) {
    return transaction(
        "run a query",
        c -> {
          try (Statement st = c.createStatement();
              ResultSet rs = st.executeQuery(sql)) {
            return QueryRows.read(rs, Integer.MAX_VALUE).table();
          }
        });
  }

  @Override
  public synchronized <T> T transaction(String what, Work<T> work) {
    Backoff backoff = Backoff.within(session.budget(), FIRST_PAUSE);
    while (true) {
      try {
        return once(work);
      } catch (SQLException e) {
        if (!worthRetrying(e)) {
          throw failure(what, e);
        }
        // The next try connects again.
        closeQuietly();
        if (!backoff.pause()) {
          throw failure(what, e);
        }
      }
    }
  }

  private <T> T once(Work<T> work) throws SQLException {
    if (db == null || db.isClosed()) {
      db = connect();
    }
    try {
      if (session.fence() != null) {
        checkClaim(db, session.fence());
      }
      T result = work.run(db);
      db.commit();
      return result;
    } catch (SQLException | RuntimeException e) {
      rollbackQuietly();
      throw e;
    }
  }

  /**
   * Refuses the transaction unless {@code claim} is the queue row's current one; the row stays
   * locked against a new claim until the transaction ends, so no claim slips in between.
   */
  private static void checkClaim(Connection c, Claim claim) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT token, state, worker FROM queue WHERE experiment_id = ? FOR SHARE")) {
      ps.setLong(1, claim.experimentId());
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new ClaimLost(
              "experiment " + claim.experimentId() + " is no longer queued: this worker stops");
        }
        long token = rs.getLong(1);
        String state = rs.getString(2);
        if (token == claim.token() && state.equals("claimed")) {
          return;
        }
        String why =
            token == claim.token()
                ? "its queue row is " + state + " now"
                : "worker " + rs.getString(3) + " claimed it after this worker's lease ran out";
        throw new ClaimLost(
            "experiment "
                + claim.experimentId()
                + " is no longer this worker's ("
                + why
                + "): it stops before its next trial, restores its hosts and writes nothing more");
      }
    }
  }

  private Connection connect() throws SQLException {
    Properties p = url.properties(env);
    // Seconds, as pgjdbc counts them; 0 would mean no limit.
    p.setProperty("socketTimeout", Long.toString(Math.max(1, session.socketTimeout().toSeconds())));
    if (session.options() != null) {
      p.setProperty("options", session.options());
    }
    Connection c = DriverManager.getConnection(url.jdbcUrl(), p);
    c.setAutoCommit(false);
    c.setReadOnly(session.readOnly());
    return c;
  }

  private void rollbackQuietly() {
    try {
      if (db != null && !db.isClosed()) {
        db.rollback();
      }
    } catch (SQLException ignored) {
      closeQuietly(); // the next try connects again
    }
  }

  /**
   * A lost or refused connection (class 08), a server shutting down (57P01–57P03), a serialization
   * failure or a deadlock (class 40): the server rolled the transaction back.
   */
  static boolean worthRetrying(SQLException e) {
    String state = e.getSQLState();
    if (state == null) {
      return false;
    }
    return state.startsWith("08") || state.startsWith("40") || state.matches("57P0[123]");
  }

  private TunelabException failure(String what, SQLException e) {
    String message = "database " + url + ": cannot " + what + ": " + reason(e);
    // The server away past the budget refused the write, as a full disk would: what was to be
    // stored is kept aside rather than lost.
    return worthRetrying(e)
        ? new StorageFailure(message, "bring the server back", e)
        : new TunelabException(TunelabException.INTERNAL, message, e);
  }

  /** The server's own message, without pgjdbc's position and hint lines. */
  static String reason(SQLException e) {
    String m = String.valueOf(e.getMessage());
    int cut = m.indexOf("\n  ");
    return cut > 0 ? m.substring(0, cut) : m;
  }

  @Override
  public synchronized void closeQuietly() {
    try {
      if (db != null) {
        db.close();
      }
    } catch (SQLException ignored) {
      // a connection that cannot close is gone anyway
    } finally {
      db = null;
    }
  }

  @Override
  public synchronized void close() {
    closeQuietly();
  }
}
