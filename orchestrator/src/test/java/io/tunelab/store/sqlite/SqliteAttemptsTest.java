package io.tunelab.store.sqlite;

import static io.tunelab.store.Fixtures.cell;
import static io.tunelab.store.Fixtures.experiment;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tunelab.store.Attempt;
import io.tunelab.store.Fixtures;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code trial_attempts}: every attempt of a trial, numbered per trial across runs. */
class SqliteAttemptsTest {
  private static final Instant T0 = Instant.parse("2024-05-01T12:00:00Z");

  @TempDir Path dir;

  @Test
  void attemptsAreNumberedPerTrialAcrossReopensAndKeepTheirError() throws Exception {
    Path db = dir.resolve("t.db");
    long first;
    long second;
    try (JdbcResultStore store = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      long id =
          store.createExperiment(
              experiment("lossy", 2, 0, List.of(cell(1, "bs", "1M"))), Fixtures.TOOL_VERSION);
      first = store.unfinishedTrials(id).get(0).trialId();
      second = store.unfinishedTrials(id).get(1).trialId();
      assertEquals(
          1,
          store.recordAttempt(
              first,
              new Attempt(
                  T0,
                  T0.plusSeconds(3),
                  Attempt.Status.LOST,
                  "host server: the agent exited during 'run'")));
      assertEquals(1, store.recordAttempt(second, new Attempt(T0, T0, Attempt.Status.OK, null)));
    }
    try (JdbcResultStore store = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      assertEquals(
          2,
          store.recordAttempt(
              first,
              new Attempt(
                  T0.plusSeconds(10), T0.plusMillis(12_345), Attempt.Status.FAILED, "exited 1")));
    }

    assertEquals(
        List.of(
            List.of(
                first,
                1L,
                "2024-05-01T12:00:00.000Z",
                "2024-05-01T12:00:03.000Z",
                "lost",
                "host server: the agent exited during 'run'"),
            List.of(
                first,
                2L,
                "2024-05-01T12:00:10.000Z",
                "2024-05-01T12:00:12.345Z",
                "failed",
                "exited 1"),
            List.of(second, 1L, "2024-05-01T12:00:00.000Z", "2024-05-01T12:00:00.000Z", "ok", "-")),
        rows(
            db,
            "SELECT trial_id, attempt, started_at, finished_at, status, coalesce(error, '-')"
                + " FROM trial_attempts ORDER BY trial_id, attempt"));
  }

  private static List<List<Object>> rows(Path db, String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      List<List<Object>> rows = new ArrayList<>();
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<Object> row = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
          Object v = rs.getObject(i);
          row.add(v instanceof Integer small ? Long.valueOf(small) : v);
        }
        rows.add(row);
      }
      return rows;
    }
  }
}
