package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Cli;
import io.tunelab.testing.Integration;
import io.tunelab.testing.SqliteQuery;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * cell_setup and cell_teardown around each cell, before_trial and after_trial commands: real runs
 * through the CLI and the local agent, as root, on a loop disk the test makes.
 */
@Integration
class CellStepsTest {
  @TempDir Path dir;
  @RegisterExtension final LoopDiskExtension disks = new LoopDiskExtension(32);
  LoopDisk disk;
  Path mnt;
  Path log;

  @BeforeEach
  void disk() throws Exception {
    disk = disks.disk();
    mnt = Files.createDirectories(dir.resolve("mnt"));
    log = dir.resolve("log");
  }

  @AfterEach
  void release() throws Exception {
    if (mnt != null) {
      LoopDisk.sh("! mountpoint -q " + mnt + " || umount " + mnt);
    }
  }

  private Path matrix(String body) throws Exception {
    Path file = dir.resolve("m.yaml");
    Files.writeString(
        file,
        body.replace("DEV", disk.dev)
            .replace("MNT", mnt.toString())
            .replace("LOG", log.toString()));
    return file;
  }

  private List<String> logLines() throws Exception {
    return Files.exists(log) ? Files.readAllLines(log) : List.of();
  }

  private static final String FILE_SYSTEM_PER_CELL =
      """
      name: NAME
      cell_setup:
        - run: mkfs.ext4 -q -F /dev/DEV && mount -o ${opt} /dev/DEV MNT
        - run: echo setup ${opt} >> LOG && findmnt -n -o OPTIONS MNT | tr , '\\n' | grep -x ${opt}
          capture: mounted
      cell_teardown:
        - run: echo teardown ${opt} ${mounted} >> LOG && umount MNT && wipefs -q -a /dev/DEV
      matrix:
        opt: [noatime, relatime]
      repeat: 2
      before_trial:
        - { run: "echo before ${opt} ${rep} >> LOG && rm -f MNT/f0" }
        - sync
        - { run: "findmnt -n -o OPTIONS MNT | tr , '\\\\n' | grep -qx ${mounted}" }
      after_trial:
        - { run: "echo after ${opt} ${rep} >> LOG && test -s MNT/f0" }
      workload:
        dd: {input: /dev/zero, output: MNT/f0, bs: 1M, count: 4, flags: [conv=fdatasync]}
      """;

  @Test
  void eachCellGetsItsOwnFileSystemSetUpAndRemovedOnce() throws Exception {
    Path m = matrix(FILE_SYSTEM_PER_CELL.replace("NAME", "cells-mount"));
    Path db = dir.resolve("t.db");
    Cli.Result r = Cli.tunelab("run", m.toString(), "--db", db.toString());
    assertEquals(0, r.code(), r.all());
    assertEquals(
        List.of(
            "setup noatime",
            "before noatime 1",
            "after noatime 1",
            "before noatime 2",
            "after noatime 2",
            "teardown noatime noatime",
            "setup relatime",
            "before relatime 1",
            "after relatime 1",
            "before relatime 2",
            "after relatime 2",
            "teardown relatime relatime"),
        logLines());
    assertEquals(
        List.of(List.of("4", "4")),
        SqliteQuery.rows(db, "select count(*), sum(status = 'ok') from trials"));
    assertEquals(
        List.of(List.of("4")),
        SqliteQuery.rows(
            db, "select count(*) from samples where job = 'all' and metric = 'bytes'"));
    // the last cell's file system is gone, and the cell captures are not left in the store
    assertTrue(LoopDisk.sh("mountpoint " + mnt + " || true").contains("not a mountpoint"));
    assertEquals("", LoopDisk.sh("blkid -p /dev/" + disk.dev + " || true").trim());
    assertEquals(List.of(), SqliteQuery.rows(db, "select name from variables"));
  }

  @Test
  void aCellStepRunsAgainOnlyWhenAValueItUsesChanges() throws Exception {
    Path m =
        matrix(
            """
            name: cells-kept
            cell_setup:
              - run: echo ${threads} >> LOG
            matrix:
              local.block.DEV.read_ahead_kb: [128, 256, 512, 1024]
              threads: [1, 2, 4]
            order: fewest-changes
            workload:
              dd: {input: /dev/DEV, output: /dev/null, bs: 64k, count: 16}
            """);
    Path db = dir.resolve("t.db");
    Cli.Result r = Cli.tunelab("run", m.toString(), "--db", db.toString());
    assertEquals(0, r.code(), r.all());
    assertEquals(List.of("1", "2", "4"), logLines());
    assertEquals(
        List.of(List.of("12", "12")),
        SqliteQuery.rows(db, "select count(*), sum(status = 'ok') from trials"));
    // every trial ran with its own cell's read_ahead_kb, also where the cell was kept
    assertEquals(
        List.of(List.of("12")),
        SqliteQuery.rows(
            db,
            "select count(*) from trials t join cell_knobs k on k.cell_id = t.cell_id"
                + " join settings s on s.trial_id = t.id and s.knob like '%read_ahead_kb'"
                + " where s.effective = k.value"));
  }

  @Test
  void shuffledTrialsKeepTheTrialsOfEachCellStepValueTogether() throws Exception {
    Path m =
        matrix(FILE_SYSTEM_PER_CELL.replace("NAME", "cells-shuffle") + "order: shuffle\nseed: 1\n");
    Files.writeString(m, Files.readString(m).replace("repeat: 2", "repeat: 3"));
    Path db = dir.resolve("t.db");
    Cli.Result r = Cli.tunelab("run", m.toString(), "--db", db.toString());
    assertEquals(0, r.code(), r.all());
    List<String> order = new ArrayList<>();
    for (List<String> row :
        SqliteQuery.rows(
            db,
            "select p.value from trials t join cell_params p on p.cell_id = t.cell_id"
                + " order by t.seq")) {
      order.add(row.get(0));
    }
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < order.size(); i++) {
      String opt = order.get(i);
      if (i == 0 || !order.get(i - 1).equals(opt)) {
        expected.add("setup " + opt);
      }
      expected.add("before " + opt);
      if (i == order.size() - 1 || !order.get(i + 1).equals(opt)) {
        expected.add("teardown " + opt + " " + opt);
      }
    }
    // Each cell has its own value of opt, the steps' variable: the shuffle stays inside each.
    assertEquals(
        2,
        expected.stream().filter(l -> l.startsWith("setup")).count(),
        "seed 1 interleaves cells of different cell-step values: " + order);
    List<String> seen =
        logLines().stream()
            .filter(l -> !l.startsWith("after"))
            .map(l -> l.startsWith("before") ? l.substring(0, l.lastIndexOf(' ')) : l)
            .toList();
    assertEquals(expected, seen);
    assertEquals(
        List.of(List.of("6")),
        SqliteQuery.rows(db, "select count(*) from trials where status = 'ok'"));
  }

  @Test
  void aCellWhoseSetupFailsFailsItsTrialsAndTheRunGoesOn() throws Exception {
    Path m =
        matrix(
            """
            name: cells-failing
            cell_setup:
              - run: echo setup ${mode} >> LOG && test ${mode} != broken
            cell_teardown:
              - run: echo teardown ${mode} >> LOG
            matrix:
              mode: [first, broken, last]
            repeat: 2
            before_trial:
              - { run: "echo before ${mode} ${rep} >> LOG" }
            workload:
              command: "true"
            """);
    Path db = dir.resolve("t.db");
    Cli.Result r = Cli.tunelab("run", m.toString(), "--db", db.toString());
    assertEquals(1, r.code(), r.all());
    assertEquals(
        List.of(
            "setup first",
            "before first 1",
            "before first 2",
            "teardown first",
            "setup broken",
            "teardown broken",
            "setup last",
            "before last 1",
            "before last 2",
            "teardown last"),
        logLines());
    List<List<String>> trials =
        SqliteQuery.rows(
            db,
            "select p.value, t.status,"
                + " coalesce(t.error like 'cell_setup: %m.yaml:3:5: host local: step %', 0)"
                + " from trials t join cell_params p on p.cell_id = t.cell_id order by t.seq");
    assertEquals(
        List.of(
            List.of("first", "ok", "0"),
            List.of("first", "ok", "0"),
            List.of("broken", "failed", "1"),
            List.of("broken", "failed", "1"),
            List.of("last", "ok", "0"),
            List.of("last", "ok", "0")),
        trials,
        SqliteQuery.rows(db, "select error from trials").toString());
    assertTrue(r.out().contains("broken rep 2: FAILED: cell_setup"), r.out());
  }

  @Test
  void aFailingBeforeTrialCommandFailsItsTrialAndAfterTrialStillRuns() throws Exception {
    Path m =
        matrix(
            """
            name: trial-steps
            matrix:
              mode: [good, bad]
            before_trial:
              - { run: "echo before ${mode} ${rep} >> LOG" }
              - drop_caches
              - { run: "test ${mode} = good || (echo no good >&2; exit 3)" }
            after_trial:
              - { run: "echo after ${mode} ${rep} >> LOG" }
            workload:
              command: echo workload ${mode} >> LOG
            """);
    Path db = dir.resolve("t.db");
    Cli.Result r = Cli.tunelab("run", m.toString(), "--db", db.toString());
    assertEquals(1, r.code(), r.all());
    assertEquals(
        List.of("before good 1", "workload good", "after good 1", "before bad 1", "after bad 1"),
        logLines());
    List<List<String>> bad =
        SqliteQuery.rows(db, "select status, error from trials where status <> 'ok'");
    assertEquals(1, bad.size(), bad.toString());
    assertTrue(
        bad.get(0).get(1).startsWith("before_trial: " + m + ":7:5: host local:"), bad.toString());
    assertTrue(bad.get(0).get(1).endsWith("exited 3: no good"), bad.toString());
  }

  @Test
  void aCapturedProcessCountIsCheckedWhenItsCellIsSetUp() throws Exception {
    Path m =
        matrix(
            """
            name: captured-processes
            cell_setup:
              - run: echo ${count}
                capture: n
            matrix:
              count: [2, lots]
            workload:
              processes: ${n}
              command: echo ${proc} >> LOG
            """);
    Path db = dir.resolve("t.db");
    Cli.Result r = Cli.tunelab("run", m.toString(), "--db", db.toString());
    assertEquals(1, r.code(), r.all());
    assertEquals(List.of("0", "1"), logLines().stream().sorted().toList());
    List<List<String>> failed =
        SqliteQuery.rows(db, "select seq, error from trials where status = 'failed'");
    assertEquals(1, failed.size(), failed.toString());
    assertEquals("2", failed.get(0).get(0));
    assertTrue(failed.get(0).get(1).contains("lots"), failed.toString());
  }
}
