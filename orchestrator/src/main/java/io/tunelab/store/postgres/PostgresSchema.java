package io.tunelab.store.postgres;

import io.tunelab.Timestamps;
import io.tunelab.TunelabException;
import io.tunelab.store.ExperimentQueue.Claim;
import io.tunelab.store.sql.Migrations;
import io.tunelab.store.sql.SqlDialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Opens a PostgreSQL database with the schema this tunelab knows: the migrations SQLite gets, in
 * PostgreSQL's words, applied by whichever controller comes first while the others wait for it.
 */
public final class PostgresSchema {
  /** The advisory lock the controllers of one database migrate under (any number will do). */
  private static final long MIGRATION_LOCK = 0x74756e656c6162L; // "tunelab"

  private PostgresSchema() {}

  /** Connects and applies pending migrations; a database that is not tunelab's is refused. */
  public static PostgresDatabase openWritable(
      PostgresUrl url, Map<String, String> env, Clock clock) {
    PostgresDatabase db = PostgresDatabase.open(url, env, false);
    try {
      db.transaction("migrate the schema", c -> migrate(c, url, new Timestamps(clock).now()));
    } catch (RuntimeException e) {
      db.close();
      throw e;
    }
    return db;
  }

  /**
   * As {@link #openWritable}, for a worker's run of the experiment it claimed: each transaction
   * first checks that the claim is still current ({@link PostgresDatabase.Session#fencedBy}).
   */
  static PostgresDatabase openFenced(
      PostgresUrl url, Map<String, String> env, Clock clock, Claim claim) {
    // Migrated on a connection of its own: the check reads a column a migration may add.
    openWritable(url, env, clock).close();
    return PostgresDatabase.open(url, env, PostgresDatabase.Session.of(false, env).fencedBy(claim));
  }

  /** Connects for reading only and checks the schema version. */
  public static PostgresDatabase openReadOnly(PostgresUrl url, Map<String, String> env) {
    return checked(PostgresDatabase.open(url, env, true), url);
  }

  /**
   * Connects for a user's statement that may take {@code timeout}: a session that cannot write
   * whatever the statement does to its transaction ({@code default_transaction_read_only}), whose
   * statements, lock waits and idle transactions end within the timeout, and which gives up on a
   * server that does not answer instead of waiting for it.
   */
  static PostgresDatabase openForQuery(PostgresUrl url, Map<String, String> env, Duration timeout) {
    long ms = Math.max(1, timeout.toMillis());
    String options =
        "-c default_transaction_read_only=on -c statement_timeout="
            + ms
            + " -c lock_timeout="
            + ms
            + " -c idle_in_transaction_session_timeout="
            + (ms + 5_000);
    return checked(
        PostgresDatabase.open(
            url,
            env,
            new PostgresDatabase.Session(true, timeout.plusSeconds(10), timeout, options, null)),
        url);
  }

  private static PostgresDatabase checked(PostgresDatabase db, PostgresUrl url) {
    try {
      db.transaction("read the schema version", c -> check(c, url));
    } catch (RuntimeException e) {
      db.close();
      throw e;
    }
    return db;
  }

  private static List<Integer> migrate(Connection c, PostgresUrl url, String now)
      throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute("SELECT pg_advisory_xact_lock(" + MIGRATION_LOCK + ")");
    }
    int current = Migrations.currentVersion(c, SqlDialect.POSTGRESQL);
    if (current < 0 && tables(c) > 0) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          "cannot use database "
              + url
              + ": its schema holds tables but none is tunelab's schema_version; give tunelab a"
              + " database of its own");
    }
    try {
      return Migrations.apply(c, SqlDialect.POSTGRESQL, now);
    } catch (Migrations.NewerSchemaException e) {
      throw newer(url, e.found, e.known);
    }
  }

  private static Void check(Connection c, PostgresUrl url) throws SQLException {
    int current = Migrations.currentVersion(c, SqlDialect.POSTGRESQL);
    if (current <= 0) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          "database " + url + " holds no tunelab experiments yet (run or import into it first)");
    }
    if (current > Migrations.latestVersion()) {
      throw newer(url, current, Migrations.latestVersion());
    }
    return null;
  }

  private static long tables(Connection c) throws SQLException {
    try (PreparedStatement ps =
            c.prepareStatement(
                "SELECT count(*) FROM information_schema.tables"
                    + " WHERE table_schema = current_schema()");
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static TunelabException newer(PostgresUrl url, int found, int known) {
    return new TunelabException(
        TunelabException.BAD_INPUT,
        "database "
            + url
            + " has schema version "
            + found
            + ", newer than this tunelab knows ("
            + known
            + "): use a newer tunelab");
  }
}
