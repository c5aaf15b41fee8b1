package io.tunelab.cli;

import io.tunelab.TunelabException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --db FILE|URL}: default {@code tunelab.db} in the current directory, or {@code
 * TUNELAB_DB}; a {@code postgresql://} URL names a PostgreSQL database.
 */
public final class DatabaseOption {
  @Option(
      names = "--db",
      paramLabel = "FILE|URL",
      description =
          "SQLite database file, or postgresql://USER@HOST:PORT/DB (docs/fleet.md)"
              + " (default: $TUNELAB_DB or ./tunelab.db).")
  String db;

  /** The database the user asked for, as given. */
  public String given() {
    if (db != null) {
      return db;
    }
    String env = System.getenv("TUNELAB_DB");
    return env != null && !env.isBlank() ? env : "tunelab.db";
  }

  /** Whether it is a PostgreSQL URL. */
  public boolean isUrl() {
    return Databases.isUrl(given());
  }

  /** The SQLite file the user asked for; a PostgreSQL URL is refused with exit code 2. */
  public Path path() {
    String given = given();
    if (Databases.isUrl(given)) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          "--db " + given + ": this command needs an SQLite file (--db FILE)");
    }
    return Path.of(given);
  }
}
