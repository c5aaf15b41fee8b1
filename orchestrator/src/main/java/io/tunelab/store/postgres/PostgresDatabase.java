package io.tunelab.store.postgres;

import io.tunelab.TunelabException;
import io.tunelab.store.sql.Backoff;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;

/**
 * One connection to a tunelab PostgreSQL database and the transactions run on it. A transaction
 * that loses its connection (a server restart, a network cut) or meets a deadlock is rolled back by
 * the server; it runs again whole on a new connection until {@link #RETRY_BUDGET} is spent, as a
 * locked SQLite file is waited out.
 */
public final class PostgresDatabase implements AutoCloseable {
  /** How long a transaction keeps trying while the server is away. */
  static final Duration RETRY_BUDGET = Duration.ofMinutes(10);

  private static final Duration FIRST_PAUSE = Duration.ofMillis(200);

  private final PostgresUrl url;
  private final Map<String, String> env;
  private final boolean readOnly;
  private Connection db;

  private PostgresDatabase(PostgresUrl url, Map<String, String> env, boolean readOnly) {
    this.url = url;
    this.env = env;
    this.readOnly = readOnly;
  }

  /** Connects now, so that a wrong URL or password fails before anything else is done. */
  public static PostgresDatabase open(PostgresUrl url, Map<String, String> env, boolean readOnly) {
    PostgresDatabase d = new PostgresDatabase(url, env, readOnly);
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

  /** Work done in one transaction. */
  public interface Work<T> {
    T run(Connection c) throws SQLException;
  }

  /**
   * Runs {@code work} in one transaction (read only when the database was opened so); SQL errors
   * become a {@link TunelabException} saying what could not be done.
   */
  public synchronized <T> T transaction(String what, Work<T> work) {
    Backoff backoff = new Backoff(RETRY_BUDGET, FIRST_PAUSE);
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
      T result = work.run(db);
      db.commit();
      return result;
    } catch (SQLException | RuntimeException e) {
      rollbackQuietly();
      throw e;
    }
  }

  private Connection connect() throws SQLException {
    Connection c = DriverManager.getConnection(url.jdbcUrl(), url.properties(env));
    c.setAutoCommit(false);
    c.setReadOnly(readOnly);
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
    int code = worthRetrying(e) ? TunelabException.HOST_REFUSED : TunelabException.INTERNAL;
    return new TunelabException(code, "database " + url + ": cannot " + what + ": " + reason(e), e);
  }

  /** The server's own message, without pgjdbc's position and hint lines. */
  static String reason(SQLException e) {
    String m = String.valueOf(e.getMessage());
    int cut = m.indexOf("\n  ");
    return cut > 0 ? m.substring(0, cut) : m;
  }

  private void closeQuietly() {
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
