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
import org.junit.jupiter.api.io.TempDir;

/**
 * Knobs over a list capture and knobs named through a cell's captures, on three loop disks the test
 * makes: applied per device, recorded per device, restored.
 */
@Integration
class KnobListTest {
  @TempDir Path dir;
  final List<LoopDisk> disks = new ArrayList<>();
  final List<String> readAheads = new ArrayList<>();

  @BeforeEach
  void disks() throws Exception {
    Lab.requireRoot();
    for (int i = 0; i < 3; i++) {
      LoopDisk d = LoopDisk.create(Files.createDirectories(dir.resolve("d" + i)), 8);
      disks.add(d);
      readAheads.add(d.queue("read_ahead_kb"));
    }
  }

  @AfterEach
  void release() throws Exception {
    for (LoopDisk d : disks) {
      d.close();
    }
  }

  private String dev(int i) {
    return disks.get(i).dev;
  }

  private Path matrix(String body) throws Exception {
    Path file = dir.resolve("m.yaml");
    Files.writeString(
        file,
        body.replace("D0", dev(0))
            .replace("D1", dev(1))
            .replace("D2", dev(2))
            .replace("DIR", dir.toString()));
    return file;
  }

  private void assertRestored() throws Exception {
    for (int i = 0; i < disks.size(); i++) {
      assertEquals(readAheads.get(i), disks.get(i).queue("read_ahead_kb"), dev(i) + " restored");
    }
  }

  @Test
  void oneEntryOverAListSetsEveryDeviceAndEachProcessReadsItsOwn() throws Exception {
    Path m =
        matrix(
            """
            name: knob-list
            setup:
              - run: echo /dev/D0; echo; echo /dev/D1; echo /dev/D2
                capture: devs[]
            matrix:
              local.block.${devs[*]}.read_ahead_kb: [256, 1024]
            workload:
              processes: ${#devs}
              dd: {input: "/dev/${devs[proc]}", output: /dev/null, bs: 1M, count: 2}
            """);
    Path db = dir.resolve("t.db");
    Cli.Result r = Cli.tunelab("run", m.toString(), "--db", db.toString());
    assertEquals(0, r.code(), r.all());
    assertRestored();
    List<List<String>> expected = new ArrayList<>();
    for (String value : List.of("256", "1024")) {
      for (int i = 0; i < 3; i++) {
        expected.add(
            List.of(
                "block." + dev(i) + ".read_ahead_kb",
                "/sys/block/" + dev(i) + "/queue/read_ahead_kb",
                value,
                value,
                readAheads.get(i)));
      }
    }
    assertEquals(
        expected,
        SqliteQuery.rows(
            db,
            "select s.knob, s.path, s.requested, s.effective, s.original from settings s"
                + " join trials t on t.id = s.trial_id order by t.seq, s.rowid"));
    assertEquals(
        List.of(List.of("dd.0", "2"), List.of("dd.1", "2"), List.of("dd.2", "2")),
        SqliteQuery.rows(
            db,
            "select job, count(*) from samples where metric = 'bytes' and job like 'dd.%'"
                + " group by job order by job"));
    assertEquals(
        List.of(List.of("devs", dev(0) + "\n" + dev(1) + "\n" + dev(2))),
        SqliteQuery.rows(db, "select name, value from variables"));
    // cells keep the entry as written, so they compare across runs on other devices
    assertEquals(
        List.of(List.of("local.block.${devs[*]}.read_ahead_kb")),
        SqliteQuery.rows(db, "select distinct knob from cell_knobs"));
  }

  @Test
  void knobsNamedByACellsCaptureAreCheckedSetAndSetBackPerCell() throws Exception {
    Files.writeString(dir.resolve("luns"), dev(0) + "\n" + dev(1) + "\nnosuchdisk\n");
    Path m =
        matrix(
            """
            name: cell-knobs
            cell_setup:
              - run: sed -n ${n}p DIR/luns
                capture: lun
            cell_teardown:
              - run: echo teardown ${n} ${lun} >> DIR/log
            matrix:
              n: [1, 2, 3]
              local.block.${lun}.read_ahead_kb: [2048]
            before_trial:
              - { run: "echo ${n} $(cat /sys/block/D0/queue/read_ahead_kb) >> DIR/log" }
            workload:
              dd: {input: "/dev/${lun}", output: /dev/null, bs: 1M, count: 1}
            """);
    Path db = dir.resolve("t.db");
    Cli.Result r = Cli.tunelab("run", m.toString(), "--db", db.toString());
    assertEquals(1, r.code(), r.all());
    assertRestored();
    // D0 holds 2048 in its cell only: set back before the cell's teardown
    assertEquals(
        List.of(
            "1 2048",
            "teardown 1 " + dev(0),
            "2 " + readAheads.get(0),
            "teardown 2 " + dev(1),
            "teardown 3 nosuchdisk"),
        Files.readAllLines(dir.resolve("log")));
    assertEquals(
        List.of(
            List.of("1", "block." + dev(0) + ".read_ahead_kb", "2048"),
            List.of("2", "block." + dev(1) + ".read_ahead_kb", "2048")),
        SqliteQuery.rows(
            db,
            "select t.seq, s.knob, s.effective from settings s join trials t on t.id = s.trial_id"
                + " order by t.seq"));
    List<List<String>> failed =
        SqliteQuery.rows(db, "select seq, error from trials where status = 'failed'");
    assertEquals(1, failed.size(), failed.toString());
    assertEquals("3", failed.get(0).get(0));
    assertTrue(
        failed.get(0).get(1).startsWith("the cell's knobs were refused: host local: "),
        failed.toString());
    assertTrue(failed.get(0).get(1).contains("nosuchdisk"), failed.toString());
  }
}
