package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Cli;
import io.tunelab.testing.Integration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code repeat: {min, max, target}} on a real run through the CLI and the local agent: a cell
 * whose figure never varies stops at min, one that keeps varying runs to max, and the report says
 * which fell short. The workload prints its own seconds (parser metrics), so the spread is the
 * test's, not the machine's.
 */
@Integration
class AdaptiveRepeatTest {
  @TempDir Path dir;

  private static final String MATRIX =
      """
      name: adaptive
      matrix:
        spread: [0, 50]
      repeat: {min: 3, max: 12, target: 2%}
      metric: seconds
      order: ORDER
      workload:
        command: "echo seconds $((100 + ${spread} * (${rep} % 2)))"
        parser: metrics
      """;

  private Map<String, String> trialsPerCell(Path db) throws Exception {
    Map<String, String> counts = new LinkedHashMap<>();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT c.label, t.status, count(*) FROM trials t JOIN cells c ON c.id = t.cell_id"
                    + " GROUP BY c.label, t.status ORDER BY c.ordinal, t.status")) {
      while (rs.next()) {
        counts.merge(rs.getString(1), rs.getString(2) + " " + rs.getInt(3), (a, b) -> a + ", " + b);
      }
    }
    return counts;
  }

  private Cli.Result run(String order) throws Exception {
    Path matrix = dir.resolve("adaptive.yaml");
    Files.writeString(matrix, MATRIX.replace("ORDER", order));
    Path db = dir.resolve(order + ".db");
    Cli.Result r = Cli.tunelab("run", matrix.toString(), "--db", db.toString());
    assertEquals(0, r.code(), r.all());
    assertEquals(
        Map.of("spread=0", "ok 3, skipped 9", "spread=50", "ok 12"), trialsPerCell(db), r.all());
    return r;
  }

  @Test
  void aQuietCellStopsAtMinAndANoisyOneRunsToMaxAndTheReportSaysSo() throws Exception {
    Cli.Result r = run("sequential");
    assertTrue(
        r.all().contains("cell 1 met its target after 3 measured trials: ±0.00% of the mean"),
        r.all());

    Path db = dir.resolve("sequential.db");
    Cli.Result report = Cli.tunelab("report", "--db", db.toString());
    assertEquals(0, report.code(), report.all());
    String text = report.out();
    assertTrue(
        text.contains(
            "repeat: 3 to 12 per cell, as many as the first 3 ask for to bring the 95% confidence"
                + " half-width of seconds within 2% of the mean"),
        text);
    assertTrue(text.contains("n per cell: 3 (cell 1), 12 (cell 2)"), text);
    assertTrue(text.contains("short of the target after 12 trials: cell 2 (spread=50) ±"), text);
    assertFalse(text.contains("unfinished"), text);

    Cli.Result plan = Cli.tunelab("plan", "--summary", dir.resolve("adaptive.yaml").toString());
    assertTrue(
        plan.out().contains("2 cells x 3 to 12 repetitions (+0 warm-up) = 6 to 24 trials"),
        plan.all());
  }

  @Test
  void aShuffledRunSkipsTheRestOfACellWhereverTheyStand() throws Exception {
    run("shuffle");
  }
}
