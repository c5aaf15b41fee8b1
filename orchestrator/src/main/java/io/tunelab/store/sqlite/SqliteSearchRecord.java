package io.tunelab.store.sqlite;

import io.tunelab.store.SearchRecord;
import io.tunelab.store.SearchState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Reads a search's trials and rounds ({@link SearchRecord}) in one transaction. */
final class SqliteSearchRecord {
  private SqliteSearchRecord() {}

  static SearchRecord load(Transactions tx, long experimentId, String job, String metric) {
    return tx.transaction(
        "read the search of experiment " + experimentId,
        c ->
            new SearchRecord(
                SqliteCellStatistics.trialValues(c, experimentId, job, metric),
                rounds(c, experimentId)));
  }

  private static List<SearchRecord.Round> rounds(Connection c, long experimentId)
      throws SQLException {
    List<SearchRecord.Round> rounds = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT r.round, c.ordinal, r.state, r.reason FROM search_rounds r"
                + " JOIN cells c ON c.id = r.cell_id WHERE r.experiment_id = ?"
                + " ORDER BY r.round, c.ordinal")) {
      ps.setLong(1, experimentId);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rounds.add(
              new SearchRecord.Round(
                  rs.getInt(1), new SearchState(rs.getInt(2), rs.getString(3), rs.getString(4))));
        }
      }
    }
    return rounds;
  }
}
