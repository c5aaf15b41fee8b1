package io.tunelab.store.sqlite;

import io.tunelab.TunelabException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.SQLException;
import org.sqlite.SQLiteConfig;

/** Opens connections to a tunelab database file, for writing or for reading only. */
final class SqliteConnections {
  /** How long a statement waits for another process's write lock before failing. */
  static final int BUSY_TIMEOUT_MS = 30_000;

  private static final int SQLITE_READONLY = 8;
  private static final int SQLITE_CANTOPEN = 14;

  private SqliteConnections() {}

  /** Refuses, with exit code 2, a path where a database cannot be created or written. */
  static void checkWritable(Path db) {
    Path file = db.toAbsolutePath().normalize();
    if (Files.isDirectory(file)) {
      throw refused(file, "it is a directory");
    }
    if (Files.exists(file)) {
      if (!Files.isRegularFile(file)) {
        throw refused(file, "it is not a regular file");
      }
      if (!Files.isWritable(file)) {
        throw refused(file, "the file is not writable");
      }
    }
    Path dir = file.getParent();
    if (dir == null || !Files.exists(dir)) {
      throw refused(file, "directory " + dir + " does not exist");
    }
    if (!Files.isDirectory(dir)) {
      throw refused(file, dir + " is not a directory");
    }
    // SQLite creates its -wal and -shm files next to the database.
    if (!Files.isWritable(dir)) {
      throw refused(file, "directory " + dir + " is not writable");
    }
  }

  /** A read-write connection in WAL mode with foreign keys on; creates the file if missing. */
  static Connection openWritable(Path db) {
    checkWritable(db);
    Path file = db.toAbsolutePath().normalize();
    SQLiteConfig config = common();
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    // Said, not assumed from the build's default: a committed trial survives a power cut.
    config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
    // Every write transaction takes the write lock up front, so two tunelab processes
    // wait for each other (busy_timeout) instead of failing on a lock upgrade.
    config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
    try {
      createPrivate(file);
      return config.createConnection("jdbc:sqlite:" + file.toUri());
    } catch (SQLException e) {
      throw refused(file, reason(e));
    }
  }

  /**
   * A new database is created 0600: {@code restore} and {@code resume} run the steps it stores, and
   * SQLite gives its {@code -wal} and {@code -shm} files the database's mode.
   */
  private static void createPrivate(Path file) throws SQLException {
    try {
      Files.createFile(
          file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (FileAlreadyExistsException e) {
      // an existing database keeps the mode its owner gave it
    } catch (IOException e) {
      throw new SQLException("cannot create the file: " + e.getMessage(), e);
    }
  }

  /**
   * A connection that cannot write, on an existing file; {@code immutable} tells SQLite the file
   * cannot change while it is open, so it takes no lock and needs no {@code -shm} file.
   */
  static Connection openReadOnly(Path db, boolean immutable) {
    Path file = db.toAbsolutePath().normalize();
    if (!Files.exists(file)) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          "no database at " + file + " (give --db FILE or set TUNELAB_DB)");
    }
    if (!Files.isRegularFile(file)) {
      throw new TunelabException(
          TunelabException.BAD_INPUT, "cannot read database " + file + ": not a regular file");
    }
    SQLiteConfig config = common();
    config.setReadOnly(true);
    try {
      return config.createConnection(
          "jdbc:sqlite:" + file.toUri() + "?mode=ro" + (immutable ? "&immutable=1" : ""));
    } catch (SQLException e) {
      throw new TunelabException(
          TunelabException.BAD_INPUT, "cannot read database " + file + ": " + reason(e), e);
    }
  }

  /**
   * Whether reading {@code file} failed because its directory cannot be written: a WAL database
   * needs a {@code -shm} file beside it, which a read-only file system cannot give.
   */
  static boolean needsImmutable(Path file, TunelabException e) {
    if (!(e.getCause() instanceof SQLException sql)) {
      return false;
    }
    int code = sql.getErrorCode() & 0xff;
    return (code == SQLITE_CANTOPEN || code == SQLITE_READONLY)
        && !Files.isWritable(file.getParent());
  }

  /** The part of an SQLite message a user can act on. */
  static String reason(SQLException e) {
    String m = String.valueOf(e.getMessage());
    // sqlite-jdbc says "[SQLITE_NOTADB] File opened that is not a database file (file is
    // not a database)": the text in parentheses is SQLite's own, shortest wording.
    int open = m.lastIndexOf('(');
    if (m.startsWith("[") && open > 0 && m.endsWith(")")) {
      return m.substring(open + 1, m.length() - 1);
    }
    return m;
  }

  static TunelabException refused(Path file, String reason) {
    return new TunelabException(
        TunelabException.BAD_INPUT, "cannot write database " + file + ": " + reason);
  }

  private static SQLiteConfig common() {
    SQLiteConfig config = new SQLiteConfig();
    config.enforceForeignKeys(true);
    config.setBusyTimeout(BUSY_TIMEOUT_MS);
    config.setOpenMode(org.sqlite.SQLiteOpenMode.OPEN_URI);
    // Left on, the driver matches every INSERT, UPDATE and DELETE against a pattern and runs a
    // query of its own after each INSERT, for keys tunelab never asks it for: a few hundred
    // microseconds of every trial's commit while the JVM has not compiled that code
    // (docs/performance.md).
    config.setGetGeneratedKeys(false);
    return config;
  }
}
