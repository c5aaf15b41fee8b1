package io.tunelab.store.sqlite;

import io.tunelab.Backoff;
import io.tunelab.TunelabException;
import io.tunelab.store.ResultTable;
import io.tunelab.store.sql.Migrations;
import io.tunelab.store.sql.SqlDialect;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * The {@link Transactions} of an SQLite file. While another process holds the file, each try waits
 * the connection's busy timeout, then backs off, within the wait budget: ten minutes by default
 * covers a reader's forgotten open transaction or a long VACUUM without losing the trial being
 * stored.
 */
final class SqliteTransactions extends Transactions {
  private static final Duration FIRST_PAUSE = Duration.ofMillis(100);

  private final Path file;
  private final Connection db;
  private final Duration busyBudget;

  SqliteTransactions(Path file, Connection db) {
    this(file, db, waitBudget(System.getenv()));
  }

  SqliteTransactions(Path file, Connection db, Duration busyBudget) {
    super(SqlDialect.SQLITE);
    this.file = file;
    this.db = db;
    this.busyBudget = busyBudget;
  }

  /** The database file, absolute. */
  Path file() {
    return file;
  }

  @Override
  public String location() {
    return file.toString();
  }

  @Override
  public Path keptTrialsDirectory() {
    return KeptTrials.beside(file).dir();
  }

  @Override
  public synchronized <T> T transaction(String what, Work<T> work) {
    Backoff backoff = Backoff.within(busyBudget, FIRST_PAUSE);
    while (true) {
      try {
        return once(work);
      } catch (SQLException e) {
        // Rolled back whole: the work runs again from the start once the holder lets go.
        if (!busy(e) || !backoff.pause()) {
          throw failure(what, e);
        }
      }
    }
  }

  private <T> T once(Work<T> work) throws SQLException {
    try {
      begin();
      T result;
      try {
        result = work.run(db);
        db.commit();
      } catch (SQLException | RuntimeException e) {
        try {
          db.rollback();
        } catch (SQLException rollback) {
          e.addSuppressed(rollback);
        }
        try {
          db.setAutoCommit(true);
        } catch (SQLException noTransaction) {
          // SQLite rolled back by itself (FULL, IOERR), so sqlite-jdbc's COMMIT finds no
          // transaction: the first error is the one that tells what happened.
          e.addSuppressed(noTransaction);
        }
        throw e;
      }
      // Back to autocommit: sqlite-jdbc begins the next transaction as soon as one
      // commits, which would keep the write lock between our calls.
      db.setAutoCommit(true);
      return result;
    } catch (Migrations.NewerSchemaException e) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          "database "
              + file
              + " has schema version "
              + e.found
              + ", newer than this tunelab knows ("
              + e.known
              + "): use a newer tunelab");
    }
  }

  /**
   * Runs {@code work} as {@link #transaction} does with SQLite's foreign key checks off, for a bulk
   * insert that checks its own rows' keys once at the end: looked up row by row they cost more than
   * the rest of the insert.
   */
  @Override
  public synchronized <T> T transactionCheckingKeysItself(String what, Work<T> work) {
    foreignKeys(false, what);
    try {
      return transaction(what, work);
    } finally {
      foreignKeys(true, what);
    }
  }

  // The pragma is a no-op inside a transaction: this runs between two.
  private void foreignKeys(boolean on, String what) {
    try (Statement st = db.createStatement()) {
      st.execute("PRAGMA foreign_keys = " + (on ? "ON" : "OFF"));
    } catch (SQLException e) {
      throw failure(what, e);
    }
  }

  /**
   * Begins a transaction. sqlite-jdbc marks the connection as inside one before its BEGIN runs, so
   * a BEGIN refused as busy must unmark it, or the retry would run outside any transaction.
   */
  private void begin() throws SQLException {
    try {
      db.setAutoCommit(false);
    } catch (SQLException e) {
      try {
        db.setAutoCommit(true);
      } catch (SQLException nothingToEnd) {
        // the mark is reset before sqlite-jdbc's COMMIT fails
      }
      throw e;
    }
  }

  private static boolean busy(SQLException e) {
    int code = e.getErrorCode() & 0xff;
    return code == 5 || code == 6;
  }

  /**
   * Runs {@code work} in autocommit mode, as SQLite runs a statement typed at its prompt, and
   * leaves its SQL errors to the caller: for the user's own statements ({@code tunelab query}).
   */
  synchronized <T> T autocommit(Work<T> work) throws SQLException {
    return work.run(db);
  }

  @Override
  public ResultTable query(String sql) {
    return SqliteQueryRunner.run(this, sql);
  }

  @Override
  public synchronized void close() {
    try {
      db.close();
    } catch (SQLException e) {
      throw failure("close", e);
    }
  }

  @Override
  public synchronized void closeQuietly() {
    try {
      db.close();
    } catch (SQLException ignored) {
      // Already failing with a better message.
    }
  }

  private TunelabException failure(String what, SQLException e) {
    int code = e.getErrorCode() & 0xff;
    String reason = SqliteConnections.reason(e);
    if (code == 5 || code == 6) {
      reason += " (another process holds the database)";
    } else if (code == 8) {
      reason += " (opened read-only)";
    }
    String message = "database " + file + ": cannot " + what + ": " + reason;
    // The environment refused, not a bug of ours: what was to be stored must not be lost.
    String remedy =
        switch (code) {
          case 10, 13 -> "free some space";
          case 5, 6 -> "stop the process that holds the database";
          case 8 -> "make the database writable";
          default -> null;
        };
    return remedy != null
        ? new StorageFailure(message, remedy, e)
        : new TunelabException(TunelabException.INTERNAL, message, e);
  }
}
