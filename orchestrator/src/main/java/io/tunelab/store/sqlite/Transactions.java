package io.tunelab.store.sqlite;

import io.tunelab.TunelabException;
import io.tunelab.matrix.Durations;
import io.tunelab.store.ResultTable;
import io.tunelab.store.sql.SqlDialect;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;

/**
 * One connection to a tunelab database and the transactions run on it, one at a time: what the
 * store's writers and readers share on either engine. A transaction the database cannot take now (a
 * locked SQLite file, a PostgreSQL server away or hung) runs again whole, with backoff, for {@code
 * TUNELAB_DB_WAIT}; SQL errors leave as a {@link TunelabException} saying what could not be done.
 */
public abstract class Transactions implements AutoCloseable {
  /** The variable that bounds how long a transaction is retried, and its default. */
  public static final String WAIT_VARIABLE = "TUNELAB_DB_WAIT";

  private static final Duration DEFAULT_WAIT = Duration.ofMinutes(10);

  /** Work done on the connection, inside a transaction or not. */
  public interface Work<T> {
    T run(Connection c) throws SQLException;
  }

  private final SqlDialect dialect;

  protected Transactions(SqlDialect dialect) {
    this.dialect = dialect;
  }

  /** The engine's SQL words. */
  public final SqlDialect dialect() {
    return dialect;
  }

  /** Where the database is, as messages name it: a file's absolute path, or a URL. */
  public abstract String location();

  /**
   * The directory of the trial commits the database refused ({@link KeptTrials}): beside an SQLite
   * file, in the user's state directory for a PostgreSQL database.
   */
  public abstract Path keptTrialsDirectory();

  /**
   * Runs {@code work} in one transaction (a consistent snapshot when reading), again from the start
   * while the database cannot take it now, within the wait budget.
   */
  public abstract <T> T transaction(String what, Work<T> work);

  /**
   * As {@link #transaction}, for a bulk insert that checks its own rows' keys once at the end, on
   * an engine that can be told not to look them up row by row.
   */
  public <T> T transactionCheckingKeysItself(String what, Work<T> work) {
    return transaction(what, work);
  }

  /**
   * The rows of one SQL statement in the engine's own dialect; on a connection opened read-only a
   * statement that would change the database fails. Bad SQL or several statements fail with exit
   * code 2.
   */
  public abstract ResultTable query(String sql);

  /** Closes after another failure, which says more than a failure to close would. */
  public abstract void closeQuietly();

  @Override
  public abstract void close();

  /**
   * How long a transaction keeps trying: {@code TUNELAB_DB_WAIT} (a duration: {@code 30s}, {@code
   * 10m}), ten minutes when unset; a value that is not a duration is refused with exit code 2.
   */
  public static Duration waitBudget(Map<String, String> env) {
    String text = env.get(WAIT_VARIABLE);
    if (text == null || text.isBlank()) {
      return DEFAULT_WAIT;
    }
    try {
      return Durations.parse(text.trim());
    } catch (RuntimeException e) {
      throw new TunelabException(
          TunelabException.BAD_INPUT, WAIT_VARIABLE + "=" + text + ": " + e.getMessage());
    }
  }
}
