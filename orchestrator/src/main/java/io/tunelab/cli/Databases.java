package io.tunelab.cli;

import io.tunelab.store.ImportedExperiment;
import io.tunelab.store.QueryAnswer;
import io.tunelab.store.QueryLimits;
import io.tunelab.store.ResultReader;
import io.tunelab.store.ResultStore;
import io.tunelab.store.ResultTable;
import io.tunelab.store.sqlite.SqliteImport;
import io.tunelab.store.sqlite.SqliteQueryRunner;
import io.tunelab.store.sqlite.SqliteResultStore;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * Which store a database path opens: the one place that names the implementation (an SQLite file).
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

  /** Copies the experiments of the SQLite file {@code source} into {@code db}. */
  static List<ImportedExperiment> importFile(Path source, Path db) {
    return SqliteImport.importFile(source, db, Clock.systemUTC());
  }
}
