package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Cli;
import io.tunelab.testing.Integration;
import io.tunelab.testing.SqliteQuery;
import io.tunelab.testing.TestTime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * An unattended run seen from outside: {@code --max-time}, {@code status} from another process, and
 * a database whose disk fills up mid-run.
 */
@Integration
class UnattendedRunTest {
  @TempDir Path dir;
  @RegisterExtension final LoopDiskExtension disks = new LoopDiskExtension(16);
  LoopDisk disk;
  String readAhead;

  @BeforeEach
  void disk() throws Exception {
    disk = disks.disk();
    readAhead = disk.queue("read_ahead_kb");
  }

  /** Six trials of {@code workload} over three read-ahead values. */
  private Path matrix(String name, String workload) throws Exception {
    Path m = dir.resolve(name + ".yaml");
    Files.writeString(
        m,
        """
        name: NAME
        matrix:
          local.block.DEV.read_ahead_kb: [1024, 2048, 4096]
        repeat: 2
        workload:
          command: WORKLOAD
        """
            .replace("NAME", name)
            .replace("DEV", disk.dev)
            .replace("WORKLOAD", workload));
    return m;
  }

  @Test
  void maxTimeStopsBetweenTrialsAndResumeDoesTheRest() throws Exception {
    Path db = dir.resolve("t.db");
    Path m = matrix("bounded", "sleep 1");

    Cli.Result r = Cli.tunelab("run", m.toString(), "--db", db.toString(), "--max-time", "3s");

    assertEquals(1, r.code(), r.all());
    assertTrue(r.out().contains("max time 3s: no trial starts after "), r.out());
    assertTrue(r.out().contains("max time reached after "), r.out());
    assertTrue(r.out().contains("continue with: tunelab resume 1"), r.out());
    assertEquals(
        List.of(List.of("interrupted")), SqliteQuery.rows(db, "select status from experiments"));
    List<List<String>> counts =
        SqliteQuery.rows(
            db,
            "select sum(status = 'ok'), sum(status = 'pending'), sum(status = 'running')"
                + " from trials");
    int ok = Integer.parseInt(counts.get(0).get(0));
    assertTrue(ok < 6, counts.toString());
    assertEquals(String.valueOf(6 - ok), counts.get(0).get(1), "the rest is pending");
    assertEquals("0", counts.get(0).get(2), "no trial was cut short");
    assertEquals(
        List.of(),
        SqliteQuery.rows(
            db, "select id from trials where status = 'ok' and workload_seconds < 0.9"),
        "every trial ran whole");
    assertEquals(readAhead, disk.queue("read_ahead_kb"), "restored at the deadline");
    // Not a terminal: one timestamped line per trial, with failures, elapsed time and ETA.
    Pattern line =
        Pattern.compile(
            "(?m)^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ \\[1/6\\] read_ahead_kb=1024 rep 1:"
                + " .* \\(0 failed, \\d+s elapsed, eta \\d+s\\)$");
    if (ok > 0) {
      assertTrue(line.matcher(r.out()).find(), r.out());
    }

    Cli.Result again = Cli.tunelab("resume", "1", "--db", db.toString(), "--max-time", "1h");

    assertEquals(0, again.code(), again.all());
    assertEquals(
        List.of(List.of("6", "6")),
        SqliteQuery.rows(db, "select count(*), sum(status = 'ok') from trials"));
    assertEquals(
        List.of(List.of("finished")), SqliteQuery.rows(db, "select status from experiments"));
    assertEquals(readAhead, disk.queue("read_ahead_kb"));
  }

  @Test
  void statusInAnotherProcessShowsTheRunningTrialAndTheLastEvent() throws Exception {
    Path db = dir.resolve("t.db");
    Path m = matrix("watched", "sleep 1.5");
    Process p = Controller.run(m, db, dir.resolve("out.txt"));
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestTime.seconds(60));
      while (System.nanoTime() < deadline
          && (!Files.exists(db)
              || SqliteQuery.rows(db, "select 1 from trials where seq = 2 and status = 'running'")
                  .isEmpty())) {
        Thread.sleep(20);
      }

      Cli.Result s = Cli.tunelab("status", "--db", db.toString());

      assertEquals(0, s.code(), s.all());
      assertTrue(
          s.out().contains("experiment 1 watched: running, 1/6 trials done (0 failed)"), s.out());
      assertTrue(
          s.out().contains("  now:        trial 2/6 read_ahead_kb=1024 rep 2, started "), s.out());
      assertTrue(s.out().matches("(?s).*  eta:        \\d+s, about .*"), s.out());
      assertTrue(
          s.out().contains(" trial: [1/6] read_ahead_kb=1024 rep 1: "), "last event: " + s.out());
      assertTrue(p.waitFor(TestTime.seconds(90), TimeUnit.SECONDS), "the run ends by itself");
      assertEquals(0, p.exitValue(), Files.readString(dir.resolve("out.txt")));
      assertFalse(Cli.tunelab("status", "--db", db.toString()).out().contains("now:"));
    } finally {
      p.destroy();
      p.waitFor(TestTime.seconds(30), TimeUnit.SECONDS);
    }
    assertEquals(readAhead, disk.queue("read_ahead_kb"));
  }

  @Test
  void aTrialTheFullDiskRefusesIsKeptAsideAndResumeStoresItOnce() throws Exception {
    Path fs = Files.createDirectory(dir.resolve("fs"));
    LoopDisk.sh("mount -t tmpfs -o size=4m tunelab-full-test " + fs);
    try {
      Path db = fs.resolve("t.db");
      Path fill = fs.resolve("fill");
      // The first trial fills the file system the database is on, as a runaway log would.
      Path m =
          matrix(
              "full",
              "sh -c 'if [ ! -e "
                  + fill
                  + " ]; then dd if=/dev/zero of="
                  + fill
                  + " bs=64k 2>/dev/null; fi; sleep 0.2; true'");

      Cli.Result r = Cli.tunelab("run", m.toString(), "--db", db.toString());

      assertEquals(3, r.code(), r.all());
      Path side = fs.resolve("t.db.pending/1-1.json");
      assertTrue(r.err().contains("database or disk is full"), r.err());
      assertTrue(r.err().contains(side.toString()), r.err());
      assertTrue(r.err().contains("tunelab resume 1"), r.err());
      assertTrue(Files.exists(side), r.all());
      assertTrue(Files.readString(side).contains("\"trialId\" : 1"), Files.readString(side));
      assertEquals(readAhead, disk.queue("read_ahead_kb"), "restored after the full disk");
      assertEquals(List.of(List.of("0")), SqliteQuery.rows(db, "select count(*) from samples"));
      // Nothing of the refused commit is in the database: its attempt and event are kept with it.
      assertEquals(
          List.of(List.of("0", "0")),
          SqliteQuery.rows(
              db,
              "select (select count(*) from trial_attempts),"
                  + " (select count(*) from events where kind = 'trial')"));

      Files.write(fill, new byte[0]); // space freed; the file stays, so nothing fills it again
      Cli.Result again = Cli.tunelab("resume", "1", "--db", db.toString());

      assertEquals(0, again.code(), again.all());
      assertTrue(again.out().contains("stored trial 1 (ok) from " + side), again.out());
      assertFalse(Files.exists(side.getParent()), "the side file is gone once stored");
      assertEquals(
          List.of(List.of("6", "6")),
          SqliteQuery.rows(db, "select count(*), sum(status = 'ok') from trials"));
      // The kept trial is in the database exactly once, and was not run again.
      assertEquals(
          List.of(List.of("1")),
          SqliteQuery.rows(
              db,
              "select count(*) from samples where trial_id = 1 and job = 'all'"
                  + " and metric = 'seconds'"));
      // Its attempt and its event line came with it, once.
      assertEquals(
          List.of(List.of("1", "ok")),
          SqliteQuery.rows(
              db, "select count(*), max(status) from trial_attempts where trial_id = 1"));
      assertEquals(
          List.of(List.of("1")),
          SqliteQuery.rows(
              db, "select count(*) from events where kind = 'trial' and message like '[1/6]%'"));
      assertTrue(
          again.out().contains("[5/5]") && !again.out().contains("/6]"),
          "only the other five ran: " + again.out());
      assertEquals(
          List.of(),
          SqliteQuery.rows(
              db,
              "select trial_id from samples where job = 'all' and metric = 'seconds'"
                  + " group by trial_id having count(*) > 1"));
      assertEquals(readAhead, disk.queue("read_ahead_kb"));
    } finally {
      LoopDisk.sh("umount " + fs + " || umount -l " + fs);
    }
  }
}
