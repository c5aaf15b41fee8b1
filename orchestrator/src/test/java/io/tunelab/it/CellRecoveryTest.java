package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Cli;
import io.tunelab.testing.Integration;
import io.tunelab.testing.SqliteQuery;
import io.tunelab.testing.TestTime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cell that is set up when a run stops: Ctrl-C tears it down before the experiment's teardown;
 * after {@code kill -9}, {@code restore} and {@code resume} tear it down with what its steps had
 * captured.
 */
@Integration
class CellRecoveryTest {
  @TempDir Path dir;
  Path log;
  Path db;

  @BeforeEach
  void root() throws Exception {
    Lab.requireRoot();
    log = dir.resolve("log");
    db = dir.resolve("t.db");
  }

  /** Starts {@code tunelab run} as a separate JVM; returns once trial {@code seq} runs. */
  private Process startAndWaitFor(int seq, String workload) throws Exception {
    return startAndWaitFor(seq, workload, "");
  }

  /** As above, with {@code axes} (lines under {@code matrix:}) after the steps' axis n. */
  private Process startAndWaitFor(int seq, String workload, String axes) throws Exception {
    Path m = dir.resolve("m.yaml");
    Files.writeString(
        m,
        """
        name: crash-cells
        setup:
          - run: echo /tmp/made
            capture: made
        teardown:
          - run: echo teardown ${made} >> LOG
        cell_setup:
          - run: echo /dev/lun-${n}
            capture: lun
          - run: echo setup ${n} ${lun} >> LOG
        cell_teardown:
          - run: echo cell_teardown ${n} ${lun} >> LOG
        matrix:
          n: [1, 2]
        repeat: 2
        workload:
          command: WORKLOAD
        """
            .replace("LOG", log.toString())
            .replace("WORKLOAD", workload)
            .replace("  n: [1, 2]\n", "  n: [1, 2]\n" + axes));
    Process p = Controller.run(m, db, dir.resolve("out.txt"));
    if (Controller.awaitRunning(db, seq)) {
      return p;
    }
    p.destroyForcibly();
    throw new AssertionError(
        "trial " + seq + " never ran: " + Files.readString(dir.resolve("out.txt")));
  }

  private void kill(Process p) throws Exception {
    p.destroyForcibly();
    assertTrue(p.waitFor(TestTime.seconds(10), TimeUnit.SECONDS));
  }

  @Test
  void ctrlCTearsTheOpenCellDownBeforeTheExperiment() throws Exception {
    Path started = dir.resolve("started");
    Process p = startAndWaitFor(3, "test ${n} = 1 || (touch " + started + "; sleep 30)");
    // a cancel that reaches the agent before the workload starts is lost: wait for it
    for (int i = 0; i < 500 && !Files.exists(started); i++) {
      Thread.sleep(20);
    }
    new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
    assertTrue(
        p.waitFor(TestTime.seconds(20), TimeUnit.SECONDS), "the run stops soon after Ctrl-C");
    assertEquals(
        List.of(
            "setup 1 lun-1",
            "cell_teardown 1 lun-1",
            "setup 2 lun-2",
            "cell_teardown 2 lun-2",
            "teardown made"),
        Files.readAllLines(log));
    assertEquals(
        List.of(), SqliteQuery.rows(db, "select name from variables where name like '@%'"));
  }

  @Test
  void restoreAfterKillNineTearsTheOpenCellDownWithItsCaptures() throws Exception {
    kill(startAndWaitFor(2, "sleep 0.4"));
    assertEquals(
        List.of(List.of("@cell", "1"), List.of("@cell.lun", "lun-1")),
        SqliteQuery.rows(db, "select name, value from variables where name like '@%'"));
    Cli.Result r = Cli.tunelab("restore", "--db", db.toString());
    assertEquals(0, r.code(), r.all());
    assertEquals(
        List.of("setup 1 lun-1", "cell_teardown 1 lun-1", "teardown made"),
        Files.readAllLines(log));
    assertEquals(
        List.of(), SqliteQuery.rows(db, "select name from variables where name like '@%'"));
    assertEquals(
        List.of(List.of("interrupted")), SqliteQuery.rows(db, "select status from experiments"));
  }

  @Test
  void restoreTearsDownWhatTheCellStepsSetUpForTheCellsThatKeptIt() throws Exception {
    // Cell 2 (n=1, k=b) keeps what cell 1's steps set up: the store still names cell 1.
    kill(startAndWaitFor(3, "sleep 0.4", "  k: [a, b]\n"));
    assertEquals(
        List.of(List.of("@cell", "1"), List.of("@cell.lun", "lun-1")),
        SqliteQuery.rows(db, "select name, value from variables where name like '@%'"));
    Cli.Result r = Cli.tunelab("restore", "--db", db.toString());
    assertEquals(0, r.code(), r.all());
    assertEquals(
        List.of("setup 1 lun-1", "cell_teardown 1 lun-1", "teardown made"),
        Files.readAllLines(log));
  }

  @Test
  void resumeAfterKillNineTearsTheOpenCellDownThenSetsCellsUpAgain() throws Exception {
    kill(startAndWaitFor(3, "sleep 0.4"));
    Cli.Result r = Cli.tunelab("resume", "crash-cells", "--db", db.toString());
    assertEquals(0, r.code(), r.all());
    assertEquals(
        List.of(
            "setup 1 lun-1",
            "cell_teardown 1 lun-1",
            "setup 2 lun-2",
            // the killed run's cell and setup, torn down by resume
            "cell_teardown 2 lun-2",
            "teardown made",
            // the resumed run: trial 3 ran again, trial 4 for the first time
            "setup 2 lun-2",
            "cell_teardown 2 lun-2",
            "teardown made"),
        Files.readAllLines(log));
    assertEquals(
        List.of(List.of("4", "4")),
        SqliteQuery.rows(db, "select count(*), sum(status = 'ok') from trials"));
  }
}
