package io.tunelab.cli;

import io.tunelab.store.ImportedExperiment;
import io.tunelab.store.QueryAnswer;
import io.tunelab.store.QueryLimits;
import io.tunelab.store.ResultReader;
import io.tunelab.store.ResultStore;
import io.tunelab.store.ResultTable;
import io.tunelab.store.postgres.PostgresImport;
import io.tunelab.store.postgres.PostgresQueryRunner;
import io.tunelab.store.postgres.PostgresUrl;
import io.tunelab.store.sqlite.SqliteImport;
import io.tunelab.store.sqlite.SqliteQueryRunner;
import io.tunelab.store.sqlite.SqliteResultStore;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * Which store a database opens: the one place that names the implementations (an SQLite file, a
 * PostgreSQL URL).
 */
final class Databases {
  private Databases() {}

  /** Creates or opens the database for a run (migrated); exit code 2 if it cannot. */
  static ResultStore open(Path db) {
    return SqliteResultStore.open(db);
  }

  /** Opens an existing database for reading only; a missing or foreign file fails with exit 2. */
  static ResultReader openReader(Path db) {
    return SqliteResultStore.openReadOnly(db);
  }

  /** Refuses with exit code 2 a database path that cannot be created or written. */
  static void checkWritable(Path db) {
    SqliteResultStore.checkWritable(db);
  }

  /** One statement of the user's, read-only, in a store opened and closed for it. */
  static ResultTable query(Path db, String sql) {
    return SqliteResultStore.query(db, sql);
  }

  /** As {@link #query(Path, String)}, with the statement's named parameters bound, bounded. */
  static QueryAnswer query(Path db, String sql, Map<String, String> params, QueryLimits limits) {
    return SqliteQueryRunner.query(db, sql, params, limits);
  }

  /** Whether {@code db} names a PostgreSQL database (a URL) rather than an SQLite file. */
  static boolean isUrl(String db) {
    return PostgresUrl.isUrl(db);
  }

  /** Copies the experiments of the SQLite file {@code source} into {@code db}. */
  static List<ImportedExperiment> importFile(Path source, DatabaseOption db) {
    if (db.isUrl()) {
      return PostgresImport.importFile(
          source,
          PostgresUrl.parse(db.given(), System.getenv()),
          System.getenv(),
          Clock.systemUTC());
    }
    return SqliteImport.importFile(source, db.path(), Clock.systemUTC());
  }

  /** As {@link #query(Path, String, Map, QueryLimits)} on the database {@code db} names. */
  static QueryAnswer query(
      DatabaseOption db, String sql, Map<String, String> params, QueryLimits limits) {
    if (db.isUrl()) {
      return PostgresQueryRunner.query(
          PostgresUrl.parse(db.given(), System.getenv()), System.getenv(), sql, params, limits);
    }
    return query(db.path(), sql, params, limits);
  }
}
