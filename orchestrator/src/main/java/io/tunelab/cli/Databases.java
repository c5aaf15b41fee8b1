package io.tunelab.cli;

import io.tunelab.TunelabException;
import io.tunelab.store.ExperimentQueue;
import io.tunelab.store.ExperimentQueue.Claim;
import io.tunelab.store.ImportedExperiment;
import io.tunelab.store.QueryAnswer;
import io.tunelab.store.QueryLimits;
import io.tunelab.store.ResultReader;
import io.tunelab.store.ResultStore;
import io.tunelab.store.ResultTable;
import io.tunelab.store.postgres.PostgresImport;
import io.tunelab.store.postgres.PostgresQueryRunner;
import io.tunelab.store.postgres.PostgresQueue;
import io.tunelab.store.postgres.PostgresResultStore;
import io.tunelab.store.postgres.PostgresSchema;
import io.tunelab.store.postgres.PostgresUrl;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.store.sqlite.SqliteImport;
import io.tunelab.store.sqlite.SqliteQueryRunner;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which store a database opens: the one place that names the implementations (an SQLite file, a
 * PostgreSQL URL).
 */
final class Databases {
  private Databases() {}

  /** Creates or opens the database for a run (migrated); exit code 2 if it cannot. */
  static ResultStore open(Path db) {
    return JdbcResultStore.open(db);
  }

  /** Opens an existing database for reading only; a missing or foreign file fails with exit 2. */
  static ResultReader openReader(Path db) {
    return JdbcResultStore.openReadOnly(db);
  }

  /** Refuses with exit code 2 a database path that cannot be created or written. */
  static void checkWritable(Path db) {
    JdbcResultStore.checkWritable(db);
  }

  /** One statement of the user's, read-only, in a store opened and closed for it. */
  static ResultTable query(Path db, String sql) {
    return JdbcResultStore.query(db, sql);
  }

  /** As {@link #query(Path, String)}, with the statement's named parameters bound, bounded. */
  static QueryAnswer query(Path db, String sql, Map<String, String> params, QueryLimits limits) {
    return SqliteQueryRunner.query(db, sql, params, limits);
  }

  /**
   * Opens the database {@code db} names for a run; the experiments it creates on PostgreSQL record
   * {@code testbed}.
   */
  static ResultStore open(DatabaseOption db, String testbed) {
    return open(db, testbed, null);
  }

  /**
   * As {@link #open(DatabaseOption, String)}, for a worker's run of {@code claim} (null for none):
   * every write is refused once the claim is no longer current.
   */
  static ResultStore open(DatabaseOption db, String testbed, Claim claim) {
    if (!db.isUrl()) {
      return open(db.path());
    }
    return claim == null
        ? PostgresResultStore.open(url(db), System.getenv(), Clock.systemUTC(), testbed)
        : PostgresResultStore.openClaimed(
            url(db), System.getenv(), Clock.systemUTC(), testbed, claim);
  }

  /**
   * A store of the PostgreSQL database {@code db} whose experiments are experiment {@code id} only:
   * the one {@code restore} tears down.
   */
  static ResultStore openOn(DatabaseOption db, long id) {
    return PostgresResultStore.openOn(url(db), System.getenv(), Clock.systemUTC(), id);
  }

  /**
   * The experiments of the PostgreSQL database {@code db} that {@code testbed} left running on
   * hosts at {@code addresses}, with no worker's live lease on them: those {@code restore} tears
   * down.
   */
  static List<Long> leftRunning(DatabaseOption db, String testbed, Set<String> addresses) {
    return PostgresResultStore.leftRunning(
        url(db), System.getenv(), Clock.systemUTC(), testbed, addresses);
  }

  /** Opens the database {@code db} names for reading only. */
  static ResultReader openReader(DatabaseOption db) {
    return db.isUrl()
        ? PostgresResultStore.openReader(url(db), System.getenv())
        : openReader(db.path());
  }

  /**
   * Refuses with exit code 2 an SQLite path that cannot be written; a PostgreSQL database is
   * connected to and migrated (exit code 3 when it cannot be reached).
   */
  static void checkWritable(DatabaseOption db) {
    if (db.isUrl()) {
      PostgresSchema.openWritable(url(db), System.getenv(), Clock.systemUTC()).close();
    } else {
      checkWritable(db.path());
    }
  }

  /** The queue of the PostgreSQL database {@code db} names; an SQLite file has none (exit 2). */
  static ExperimentQueue queue(DatabaseOption db) {
    if (!db.isUrl()) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          "--db "
              + db.given()
              + ": the queue lives in a database every controller reaches: give a PostgreSQL"
              + " database (--db postgresql://USER@HOST:PORT/DB or TUNELAB_DB)");
    }
    return PostgresQueue.open(url(db), System.getenv(), Clock.systemUTC());
  }

  private static PostgresUrl url(DatabaseOption db) {
    return PostgresUrl.parse(db.given(), System.getenv());
  }

  /** Whether {@code db} names a PostgreSQL database (a URL) rather than an SQLite file. */
  static boolean isUrl(String db) {
    return PostgresUrl.isUrl(db);
  }

  /** Copies the experiments of the SQLite file {@code source} into {@code db}. */
  static List<ImportedExperiment> importFile(Path source, DatabaseOption db) {
    if (db.isUrl()) {
      return PostgresImport.importFile(source, url(db), System.getenv(), Clock.systemUTC());
    }
    return SqliteImport.importFile(source, db.path(), Clock.systemUTC());
  }

  /** As {@link #query(Path, String, Map, QueryLimits)} on the database {@code db} names. */
  static QueryAnswer query(
      DatabaseOption db, String sql, Map<String, String> params, QueryLimits limits) {
    if (db.isUrl()) {
      return PostgresQueryRunner.query(url(db), System.getenv(), sql, params, limits);
    }
    return query(db.path(), sql, params, limits);
  }
}
