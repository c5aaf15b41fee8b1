package io.tunelab.store.sqlite;

import io.tunelab.store.ImportedExperiment;
import io.tunelab.store.sql.ExperimentCopy;
import io.tunelab.store.sql.ImportChecks;
import io.tunelab.store.sql.ImportTarget;
import io.tunelab.store.sql.SqlDialect;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the experiments of a tunelab SQLite file for {@code tunelab import}, each in one snapshot,
 * and copies them ({@link ExperimentCopy}) into an SQLite file or another target.
 */
public final class SqliteImport {
  private SqliteImport() {}

  /**
   * Copies every experiment of {@code source} (opened read-only, any schema version this tunelab
   * reads) into the SQLite file {@code target} (created or migrated).
   */
  public static List<ImportedExperiment> importFile(Path source, Path target, Clock clock) {
    try (SqliteTransactions into = SqliteSchema.openWritable(target, clock)) {
      return importFile(source, new Target(into));
    }
  }

  /** Copies every experiment of {@code source} into {@code target}, one transaction each. */
  public static List<ImportedExperiment> importFile(Path source, ImportTarget target) {
    try (SqliteTransactions from = SqliteSchema.openReadOnly(source)) {
      from.transaction(
          "check " + source,
          c -> {
            ImportChecks.check(c, source.toString());
            return null;
          });
      List<ImportedExperiment> done = new ArrayList<>();
      for (ImportedExperiment e : from.transaction("list the experiments", ExperimentCopy::list)) {
        String what = "import experiment " + e.sourceId() + " of " + source;
        // The file is read in one snapshot; a retried copy starts its transaction again.
        done.add(
            from.transaction(
                what, s -> target.write(what, c -> ExperimentCopy.copy(s, c, target, e))));
      }
      return done;
    }
  }

  /** An SQLite file as the target: its write lock keeps every other writer out. */
  private record Target(SqliteTransactions tx) implements ImportTarget {
    @Override
    public SqlDialect dialect() {
      return SqlDialect.SQLITE;
    }

    @Override
    public <T> T write(String what, Work<T> work) {
      return tx.transaction(what, work::run);
    }

    @Override
    public void lockForCopy(Connection c) {
      // BEGIN IMMEDIATE took the database's one write lock.
    }

    @Override
    public void idsTaken(Connection c, String table) {
      // INTEGER PRIMARY KEY picks the next id after the largest.
    }
  }
}
