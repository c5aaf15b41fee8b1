package io.tunelab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.testing.Cli;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tunelab query} runs the user's own statement: it prints a bounded number of rows and
 * interrupts a statement that runs past its time, so that neither the heap nor the terminal is lost
 * to a recursive statement.
 */
class QueryLimitsTest {
  private static final String COUNTING =
      "with recursive c(x) as (select 1 union all select x + 1 from c) ";

  @TempDir static Path dir;
  static String db;

  @BeforeAll
  static void emptyDatabase() {
    db = dir.resolve("t.db").toString();
    JdbcResultStore.open(Path.of(db)).close();
  }

  @Test
  void rowsBeyondTheDefaultAreLeftUnreadAndStandardErrorSaysSo() {
    Cli.Result r =
        Cli.tunelab(
            "query", COUNTING + "select x from c limit 10005", "--format", "csv", "--db", db);

    assertEquals(0, r.code(), r.err());
    assertEquals(10_001, r.out().lines().count(), "a header and 10000 rows");
    assertTrue(r.out().endsWith("\n9999\n10000\n"), r.out().substring(r.out().length() - 40));
    assertEquals(
        "tunelab query: stopped after 10000 rows (--max-rows): the statement has more; give a"
            + " larger --max-rows, or 0 for all\n",
        r.err());
  }

  @Test
  void maxRowsBoundsEveryFormatAndZeroMeansAll() {
    Cli.Result cut =
        Cli.tunelab(
            "query",
            COUNTING + "select x from c",
            "--max-rows",
            "3",
            "--format",
            "csv",
            "--db",
            db);
    assertEquals(0, cut.code(), cut.err());
    assertEquals("x\n1\n2\n3\n", cut.out());
    assertTrue(cut.err().contains("stopped after 3 rows"), cut.err());

    Cli.Result exact =
        Cli.tunelab(
            "query",
            COUNTING + "select x from c limit 3",
            "--max-rows",
            "3",
            "--format",
            "csv",
            "--db",
            db);
    assertEquals("", exact.err());

    Cli.Result all =
        Cli.tunelab(
            "query",
            COUNTING + "select x from c limit 20000",
            "--max-rows",
            "0",
            "--format",
            "csv",
            "--db",
            db);
    assertEquals(20_001, all.out().lines().count());
    assertEquals("", all.err());
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void aStatementThatRunsForeverIsInterruptedWhenItsTimeIsUp() {
    Cli.Result r =
        Cli.tunelab("query", COUNTING + "select count(*) from c", "--timeout", "1s", "--db", db);

    assertEquals(2, r.code(), r.all());
    assertEquals("", r.out());
    assertTrue(
        r.err()
            .contains(
                "query stopped: still running after 1 s (--timeout); narrow the statement or"
                    + " give a longer --timeout"),
        r.err());
  }
}
