package io.tunelab.store.sqlite;

import io.tunelab.Timestamps;
import io.tunelab.TunelabException;
import io.tunelab.store.sql.Migrations;
import io.tunelab.store.sql.SqlDialect;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.function.Consumer;

/**
 * Opens tunelab databases with the schema this tunelab knows: creates a new file complete, migrates
 * an older one, and refuses a file that is not tunelab's or was written by a newer tunelab.
 */
final class SqliteSchema {
  private SqliteSchema() {}

  /** Creates or opens the database for writing and applies pending migrations. */
  static SqliteTransactions openWritable(Path db, Clock clock) {
    Path file = db.toAbsolutePath().normalize();
    SqliteConnections.checkWritable(file);
    if (!Files.exists(file)) {
      createComplete(file, clock);
    }
    return migrated(file, clock);
  }

  /**
   * Opens an existing tunelab database for reading only. On a read-only file system, where SQLite
   * cannot make the {@code -shm} file a WAL database needs, it is opened as immutable: no writer
   * can be there. A non-empty {@code -wal} file there holds commits an immutable open would not
   * see: that is refused (exit code 3) rather than answered without them.
   */
  static SqliteTransactions openReadOnly(Path db) {
    Path file = db.toAbsolutePath().normalize();
    try {
      return checked(
          new SqliteTransactions(file, SqliteConnections.openReadOnly(file, false)),
          SqliteSchema::check);
    } catch (TunelabException e) {
      if (!SqliteConnections.needsImmutable(file, e)) {
        throw e;
      }
      Path wal = file.resolveSibling(file.getFileName() + "-wal");
      if (sizeOf(wal) > 0) {
        throw new TunelabException(
            TunelabException.HOST_REFUSED,
            "cannot read database "
                + file
                + ": its directory is read-only and "
                + wal
                + " holds commits not yet in the database, which SQLite can only read with"
                + " the directory writable: copy both files to a writable directory",
            e);
      }
      return checked(
          new SqliteTransactions(file, SqliteConnections.openReadOnly(file, true)),
          SqliteSchema::check);
    }
  }

  private static long sizeOf(Path file) {
    try {
      return Files.exists(file) ? Files.size(file) : 0;
    } catch (IOException e) {
      return 1; // cannot tell: as if it held commits
    }
  }

  private static SqliteTransactions migrated(Path file, Clock clock) {
    Timestamps time = new Timestamps(clock);
    return checked(
        new SqliteTransactions(file, SqliteConnections.openWritable(file)),
        tx -> migrate(tx, time));
  }

  /** Runs {@code check} on a fresh connection, closing it again when the check fails. */
  private static SqliteTransactions checked(
      SqliteTransactions tx, Consumer<SqliteTransactions> check) {
    try {
      check.accept(tx);
    } catch (RuntimeException e) {
      tx.closeQuietly();
      throw e;
    }
    return tx;
  }

  /**
   * Builds a new database beside {@code file} and links it into place, so that whoever sees the
   * file (a {@code status} started at the same moment) sees the whole schema. If another process
   * created it first, or the file system has no hard links, the file is simply opened.
   */
  private static void createComplete(Path file, Clock clock) {
    Path temp =
        file.resolveSibling(
            "."
                + file.getFileName()
                + ".new-"
                + ProcessHandle.current().pid()
                + "-"
                + System.nanoTime());
    try {
      // Closing the only connection checkpoints the WAL: the file alone holds the schema.
      migrated(temp, clock).close();
      Files.createLink(file, temp);
    } catch (FileAlreadyExistsException | UnsupportedOperationException e) {
      // Someone else's database is in place, or links are not possible: open in place.
    } catch (IOException e) {
      throw SqliteConnections.refused(file, e.getMessage());
    } finally {
      for (String suffix : List.of("", "-wal", "-shm", "-journal")) {
        try {
          Files.deleteIfExists(temp.resolveSibling(temp.getFileName() + suffix));
        } catch (IOException ignored) {
          // A stray hidden file is harmless; the database itself is in place.
        }
      }
    }
  }

  private static void migrate(SqliteTransactions tx, Timestamps time) {
    tx.transaction(
        "migrate the schema",
        c -> {
          int current = Migrations.currentVersion(c, SqlDialect.SQLITE);
          if (current < 0
              && SqliteStatements.queryLong(c, "SELECT count(*) FROM sqlite_master") > 0) {
            throw new TunelabException(
                TunelabException.BAD_INPUT,
                "cannot use database "
                    + tx.file()
                    + ": it is an SQLite database but not tunelab's");
          }
          return Migrations.apply(c, SqlDialect.SQLITE, time.now());
        });
  }

  private static void check(SqliteTransactions tx) {
    tx.transaction(
        "read the schema version",
        c -> {
          int current = Migrations.currentVersion(c, SqlDialect.SQLITE);
          if (current <= 0) {
            throw new TunelabException(
                TunelabException.BAD_INPUT, tx.file() + " is not a tunelab database");
          }
          int known = Migrations.latestVersion();
          if (current > known) {
            throw new Migrations.NewerSchemaException(current, known);
          }
          return null;
        });
  }
}
