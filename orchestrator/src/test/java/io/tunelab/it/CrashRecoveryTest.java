package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code kill -9} of the controller: {@code restore} undoes, {@code resume} finishes the plan. */
@Integration
class CrashRecoveryTest {
  @TempDir Path dir;
  @RegisterExtension final LoopDiskExtension disks = new LoopDiskExtension(16);
  LoopDisk disk;
  String readAhead;

  @BeforeEach
  void disk() throws Exception {
    disk = disks.disk();
    readAhead = disk.queue("read_ahead_kb");
  }

  /** Starts {@code tunelab run} as a separate JVM and kills it -9 once trial {@code seq} runs. */
  private Path runAndKill(Path db, int seq) throws Exception {
    Process p = startAndWaitFor(db, seq, "sleep 0.4");
    p.destroyForcibly();
    assertTrue(p.waitFor(TestTime.seconds(10), TimeUnit.SECONDS));
    return dir.resolve("m.yaml");
  }

  /** Starts {@code tunelab run} as a separate JVM; returns once trial {@code seq} runs. */
  private Process startAndWaitFor(Path db, int seq, String workload) throws Exception {
    Path m = dir.resolve("m.yaml");
    Files.writeString(
        m,
        """
        name: crash
        setup:
          - run: echo /tmp/made-by-setup
            capture: made
        teardown:
          - run: echo done >> DIR/torn-down-${made}
        matrix:
          local.block.DEV.read_ahead_kb: [1024, 2048, 4096]
        repeat: 2
        workload:
          command: WORKLOAD
        """
            .replace("DEV", disk.dev)
            .replace("DIR", dir.toString())
            .replace("WORKLOAD", workload));
    Process p = Controller.run(m, db, dir.resolve("out.txt"));
    Controller.awaitRunning(db, seq);
    return p;
  }

  @Test
  void ctrlCStopsTheWorkloadRestoresAndMarksTheExperimentInterrupted() throws Exception {
    Path db = dir.resolve("t.db");
    Process p = startAndWaitFor(db, 2, "sleep 30");
    assertNotEquals(readAhead, disk.queue("read_ahead_kb"));
    long start = System.nanoTime();
    new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
    // soon, not after the workload's 30 s
    assertTrue(
        p.waitFor(TestTime.seconds(20), TimeUnit.SECONDS), "the run stops soon after Ctrl-C");
    assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(TestTime.seconds(20)));
    assertEquals(readAhead, disk.queue("read_ahead_kb"), "restored on Ctrl-C");
    String out = Files.readString(dir.resolve("out.txt"));
    assertTrue(out.contains("restored"), out);
    assertEquals(
        List.of(List.of("interrupted")), SqliteQuery.rows(db, "select status from experiments"));
    assertEquals(
        List.of(List.of("1", "1")),
        SqliteQuery.rows(db, "select sum(status = 'ok'), sum(status = 'running') from trials"));
  }

  @Test
  void closingTheTerminalDoesNotStopTheRun() throws Exception {
    Path db = dir.resolve("t.db");
    Process p = startAndWaitFor(db, 2, "sleep 0.3");
    new ProcessBuilder("kill", "-HUP", Long.toString(p.pid())).start().waitFor();
    assertTrue(p.waitFor(TestTime.seconds(60), TimeUnit.SECONDS), "the run ends by itself");
    assertEquals(0, p.exitValue(), Files.readString(dir.resolve("out.txt")));
    assertEquals(
        List.of(List.of("finished")), SqliteQuery.rows(db, "select status from experiments"));
    assertEquals(
        List.of(List.of("6")),
        SqliteQuery.rows(db, "select count(*) from trials where status = 'ok'"));
    assertEquals(readAhead, disk.queue("read_ahead_kb"), "restored at the end");
  }

  @Test
  void restoreAfterKillNineUndoesEverySetting() throws Exception {
    Path db = dir.resolve("t.db");
    runAndKill(db, 2);
    assertNotEquals(readAhead, disk.queue("read_ahead_kb"), "the killed run left the knob set");
    assertFalse(Files.exists(dir.resolve("torn-down-made-by-setup")));
    Cli.Result r = Cli.tunelab("restore", "--db", db.toString());
    assertEquals(0, r.code(), r.all());
    assertTrue(r.out().contains("read_ahead_kb"), r.out());
    assertEquals(readAhead, disk.queue("read_ahead_kb"));
    // the killed run's teardown ran with the variables its setup captured
    assertTrue(Files.exists(dir.resolve("torn-down-made-by-setup")), r.out());
    assertEquals(
        List.of(List.of("interrupted")), SqliteQuery.rows(db, "select status from experiments"));
    Cli.Result again = Cli.tunelab("restore", "--db", db.toString());
    assertTrue(again.out().contains("nothing to restore"), again.out());
  }

  @Test
  void aDeviceThatIsGoneSinceTheKillIsAWarningNotABlocker() throws Exception {
    Path db = dir.resolve("t.db");
    runAndKill(db, 2);
    String sysfs = "/sys/block/" + disk.dev;
    disk.remove();
    disk = null;
    assertFalse(Files.exists(Path.of(sysfs)), sysfs);

    Cli.Result r = Cli.tunelab("restore", "--db", db.toString());

    assertEquals(0, r.code(), r.all());
    assertTrue(r.out().contains("read_ahead_kb is gone"), r.out());
    Cli.Result again = Cli.tunelab("restore", "--db", db.toString());
    assertEquals(0, again.code(), again.all());
    assertTrue(again.out().contains("nothing to restore"), again.out());
  }

  @Test
  void resumeAfterKillFinishesThePlanWithoutRepeatingATrial() throws Exception {
    Path db = dir.resolve("t.db");
    runAndKill(db, 3);
    int okBefore =
        Integer.parseInt(
            SqliteQuery.rows(db, "select count(*) from trials where status = 'ok'").get(0).get(0));
    List<List<String>> finishedBefore =
        SqliteQuery.rows(db, "select id, finished_at from trials where status = 'ok' order by id");
    assertTrue(okBefore >= 1 && okBefore < 6, "killed mid-plan: " + okBefore);

    Cli.Result r = Cli.tunelab("resume", "crash", "--db", db.toString());
    assertEquals(0, r.code(), r.all());
    assertEquals(
        List.of(List.of("6", "6")),
        SqliteQuery.rows(db, "select count(*), sum(status = 'ok') from trials"));
    // Trials finished before the kill were not run again.
    assertEquals(
        finishedBefore,
        SqliteQuery.rows(
            db,
            "select id, finished_at from trials where id in ("
                + String.join(",", finishedBefore.stream().map(x -> x.get(0)).toList())
                + ") order by id"));
    // One sample set per trial: nothing was recorded twice.
    assertEquals(
        List.of(),
        SqliteQuery.rows(
            db,
            "select trial_id from samples where job = 'all' group by trial_id having count(*) > 1"));
    assertEquals(
        List.of(List.of("finished")), SqliteQuery.rows(db, "select status from experiments"));
    assertEquals(readAhead, disk.queue("read_ahead_kb"));
    // the killed run's setup was torn down first, then the resumed run's own at its end
    assertEquals(
        List.of("done", "done"), Files.readAllLines(dir.resolve("torn-down-made-by-setup")));
  }
}
