package io.tunelab.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --db FILE}: default {@code tunelab.db} in the current directory, or {@code TUNELAB_DB}.
 */
public final class DatabaseOption {
  @Option(
      names = "--db",
      paramLabel = "FILE",
      description = "SQLite database (default: $TUNELAB_DB or ./tunelab.db).")
  Path db;

  /** The database path the user asked for. */
  public Path path() {
    if (db != null) {
      return db;
    }
    String env = System.getenv("TUNELAB_DB");
    return Path.of(env != null && !env.isBlank() ? env : "tunelab.db");
  }
}
