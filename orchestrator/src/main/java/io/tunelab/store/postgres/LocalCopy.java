package io.tunelab.store.postgres;

import io.tunelab.TunelabException;
import io.tunelab.store.sqlite.SqliteResultStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * An SQLite file holding experiments pulled from the server, ids kept: what a run on a PostgreSQL
 * database works on, and what a report of one reads. The SQLite store's code then serves both
 * engines with one meaning.
 */
final class LocalCopy implements AutoCloseable {
  private final Path file;
  private final SqliteResultStore store;

  /** A directory made for this copy alone, removed with it; null for the spool. */
  private final Path ownDirectory;

  /** The experiments pulled, and whether with every row (true) or only their trials (false). */
  private final Map<Long, Boolean> pulled = new HashMap<>();

  private boolean closed;

  private LocalCopy(Path file, SqliteResultStore store, Path ownDirectory) {
    this.file = file;
    this.store = store;
    this.ownDirectory = ownDirectory;
  }

  /** A new, empty copy in a directory of its own under the temporary directory (0700). */
  static LocalCopy temporary(Clock clock) {
    try {
      Path dir = Files.createTempDirectory("tunelab-snapshot-");
      return new LocalCopy(
          dir.resolve("snapshot.db"),
          SqliteResultStore.open(dir.resolve("snapshot.db"), clock),
          dir);
    } catch (IOException e) {
      throw new TunelabException(
          TunelabException.HOST_REFUSED, "cannot create a temporary directory: " + e, e);
    }
  }

  /** A new, empty copy in {@code dir} (made 0700 when missing). */
  static LocalCopy create(Path dir, Clock clock) {
    try {
      // Every directory made here is 0700: the agent's copy in ~/.cache/tunelab needs its
      // directory so when this machine is also a host.
      Files.createDirectories(
          dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } catch (IOException e) {
      throw new TunelabException(
          TunelabException.HOST_REFUSED, "cannot create the directory " + dir + ": " + e, e);
    }
    Path file = dir.resolve(UUID.randomUUID() + ".db");
    return new LocalCopy(file, SqliteResultStore.open(file, clock), null);
  }

  /**
   * Where a run keeps its local copy: {@code $XDG_CACHE_HOME/tunelab/spool}, else {@code
   * ~/.cache/tunelab/spool}.
   */
  static Path spoolDirectory(Map<String, String> env) {
    String cache = env.get("XDG_CACHE_HOME");
    Path base =
        cache != null && !cache.isBlank()
            ? Path.of(cache)
            : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("tunelab").resolve("spool");
  }

  Path file() {
    return file;
  }

  SqliteResultStore store() {
    return store;
  }

  /** Pulls experiment {@code id} unless it is here already (as fully as asked). */
  void ensure(PostgresDatabase db, long id, boolean full) {
    Boolean here = pulled.get(id);
    if (here != null && (here || !full)) {
      return;
    }
    try {
      if (here != null) {
        PostgresPull.drop(file, id);
      }
    } catch (SQLException e) {
      throw new TunelabException(
          TunelabException.INTERNAL, "cannot update the local copy " + file + ": " + e, e);
    }
    db.transaction(
        "read experiment " + id,
        c -> {
          PostgresPull.pull(c, file, id, !full);
          return null;
        });
    pulled.put(id, full);
  }

  /** The experiment {@code idOrName} names on the server: by id, else the latest of that name. */
  static Optional<Long> resolve(PostgresDatabase db, String idOrName) {
    return db.transaction(
        "find experiment " + idOrName,
        c -> {
          if (idOrName.matches("\\d{1,18}")) {
            Optional<Long> byId =
                first(c, "SELECT id FROM experiments WHERE id = ?", Long.parseLong(idOrName));
            if (byId.isPresent()) {
              return byId;
            }
          }
          return first(c, "SELECT max(id) FROM experiments WHERE name = ?", idOrName);
        });
  }

  /** The most recently created experiment on the server. */
  static Optional<Long> latest(PostgresDatabase db) {
    return db.transaction(
        "find the latest experiment", c -> first(c, "SELECT max(id) FROM experiments"));
  }

  /** Every experiment id on the server, oldest first. */
  static List<Long> all(PostgresDatabase db) {
    return db.transaction(
        "list experiments",
        c -> {
          List<Long> ids = new ArrayList<>();
          try (PreparedStatement ps = c.prepareStatement("SELECT id FROM experiments ORDER BY id");
              ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              ids.add(rs.getLong(1));
            }
          }
          return ids;
        });
  }

  private static Optional<Long> first(Connection c, String sql, Object... args)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setObject(i + 1, args[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        long id = rs.getLong(1);
        return rs.wasNull() ? Optional.empty() : Optional.of(id);
      }
    }
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      store.close();
    }
  }

  /** Closes and removes the file, with SQLite's side files. */
  void delete() {
    close();
    for (String suffix : List.of("", "-wal", "-shm", "-journal", ".pending")) {
      try {
        Files.deleteIfExists(Path.of(file + suffix));
      } catch (IOException ignored) {
        // a leftover in the cache directory (a .pending holding kept trials) is harmless
      }
    }
    if (ownDirectory != null) {
      try {
        Files.deleteIfExists(ownDirectory);
      } catch (IOException ignored) {
        // the temporary directory is cleaned by the system in the end
      }
    }
  }
}
