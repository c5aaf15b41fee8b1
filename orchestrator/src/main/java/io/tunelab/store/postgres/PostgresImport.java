package io.tunelab.store.postgres;

import io.tunelab.store.ImportedExperiment;
import io.tunelab.store.sql.ImportTarget;
import io.tunelab.store.sql.SqlDialect;
import io.tunelab.store.sqlite.SqliteImport;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/** {@code tunelab import FILE.db} into PostgreSQL: the SQLite file's experiments, once each. */
public final class PostgresImport implements ImportTarget {
  /** The tables whose ids a copy chooses itself, as the SQLite file numbered them, moved. */
  private static final String ID_TABLES = "cells, trials, events, boots";

  private final PostgresDatabase db;
  private final AfterCopy after;

  /** What else the transaction that copied an experiment does (submit queues it). */
  interface AfterCopy {
    AfterCopy NONE = (c, e) -> {};

    void copied(Connection c, ImportedExperiment e) throws SQLException;
  }

  PostgresImport(PostgresDatabase db, AfterCopy after) {
    this.db = db;
    this.after = after;
  }

  /** Copies every experiment of {@code source} into the database at {@code url}. */
  public static List<ImportedExperiment> importFile(
      Path source, PostgresUrl url, Map<String, String> env, Clock clock) {
    try (PostgresDatabase db = PostgresSchema.openWritable(url, env, clock)) {
      return SqliteImport.importFile(source, new PostgresImport(db, AfterCopy.NONE));
    }
  }

  @Override
  public SqlDialect dialect() {
    return SqlDialect.POSTGRESQL;
  }

  @Override
  public <T> T write(String what, Work<T> work) {
    return db.transaction(
        what,
        c -> {
          T done = work.run(c);
          if (done instanceof ImportedExperiment e
              && e.outcome() == ImportedExperiment.Outcome.ADDED) {
            after.copied(c, e);
          }
          return done;
        });
  }

  /**
   * Ids are chosen from the tables' largest: another writer must not take one until the copy
   * commits, and two imports of one file must not both find its uuid missing.
   */
  @Override
  public void lockForCopy(Connection c) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute("LOCK TABLE experiments, " + ID_TABLES + " IN SHARE ROW EXCLUSIVE MODE");
    }
  }

  /** An identity column's sequence does not see ids given to it: it is moved past them. */
  @Override
  public void idsTaken(Connection c, String table) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute(SqlDialect.POSTGRESQL.idsTaken(table));
    }
  }
}
