package io.tunelab.store.sqlite;

import static io.tunelab.store.sqlite.SqliteStatements.queryLong;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * What SQLite would have checked row by row while a plan was stored, checked once afterwards by
 * scans of the new rows (SqlitePlanWriter turns the checks off for its bulk insert).
 */
final class SqlitePlanChecks {
  /** SQLite's extended result code for a foreign key that does not hold. */
  private static final int SQLITE_CONSTRAINT_FOREIGNKEY = 787;

  /** SQLite's extended result code for a CHECK constraint that does not hold. */
  private static final int SQLITE_CONSTRAINT_CHECK = 275;

  private SqlitePlanChecks() {}

  /**
   * Checks what the trials' CHECK constraints would have, skipped while they were inserted
   * (SqlitePlanWriter): every new trial is pending, with warmup 0 or 1. Returns how many there are.
   */
  static long trials(Connection c, long trialsBefore) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT count(*), count(*) FILTER (WHERE status IS NOT 'pending'"
                + " OR warmup NOT IN (0, 1)) FROM trials WHERE id > ?")) {
      ps.setLong(1, trialsBefore);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        if (rs.getLong(2) != 0) {
          throw new SQLException(
              "[SQLITE_CONSTRAINT_CHECK] A CHECK constraint failed"
                  + " (CHECK constraint failed: trials)",
              null,
              SQLITE_CONSTRAINT_CHECK);
        }
        return rs.getLong(1);
      }
    }
  }

  /**
   * Checks the foreign keys of the rows just written, as SQLite would have at commit: the new
   * cells' ids run from first to last without a gap and name the new experiment, and every new row
   * of cell_params, cell_knobs and trials names one of those cells (and trials the new experiment).
   * Each check reads the new rows in rowid order, with no lookup per row.
   */
  static void keys(
      Connection c,
      long experimentId,
      long first,
      long last,
      long paramsBefore,
      long knobsBefore,
      long trialsBefore)
      throws SQLException {
    boolean kept =
        queryLong(c, "SELECT count(*) FROM cells WHERE id BETWEEN ? AND ?", first, last)
                == last - first + 1
            && queryLong(
                    c,
                    "SELECT count(*) FROM cells WHERE id >= ? AND experiment_id IS NOT ?",
                    first,
                    experimentId)
                == 0
            && queryLong(
                    c,
                    "SELECT count(*) FROM cell_params WHERE rowid > ?"
                        + " AND cell_id NOT BETWEEN ? AND ?",
                    paramsBefore,
                    first,
                    last)
                == 0
            && queryLong(
                    c,
                    "SELECT count(*) FROM cell_knobs WHERE rowid > ?"
                        + " AND cell_id NOT BETWEEN ? AND ?",
                    knobsBefore,
                    first,
                    last)
                == 0
            && queryLong(
                    c,
                    "SELECT count(*) FROM trials WHERE id > ?"
                        + " AND (experiment_id IS NOT ? OR cell_id NOT BETWEEN ? AND ?)",
                    trialsBefore,
                    experimentId,
                    first,
                    last)
                == 0;
    if (!kept) {
      // What SQLite says when a deferred foreign key fails at commit.
      throw new SQLException(
          "[SQLITE_CONSTRAINT_FOREIGNKEY] A foreign key constraint failed"
              + " (FOREIGN KEY constraint failed)",
          null,
          SQLITE_CONSTRAINT_FOREIGNKEY);
    }
  }
}
