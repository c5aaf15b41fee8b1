package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Cli;
import io.tunelab.testing.Integration;
import io.tunelab.testing.SqliteQuery;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Real runs on a real loop disk, as root, through the CLI and the real agent. */
@Integration
class EndToEndTest {
  @TempDir Path dir;
  @RegisterExtension final LoopDiskExtension disks = new LoopDiskExtension(64);
  LoopDisk disk;
  String readAhead;
  String maxSectors;
  String scheduler;

  @BeforeEach
  void disk() throws Exception {
    disk = disks.disk();
    readAhead = disk.queue("read_ahead_kb");
    maxSectors = disk.queue("max_sectors_kb");
    scheduler = disk.scheduler();
  }

  private Path matrix(String body) throws Exception {
    Path file = dir.resolve("m.yaml");
    Files.writeString(file, body.replace("DEV", disk.dev));
    return file;
  }

  private void assertOriginals() throws Exception {
    assertEquals(readAhead, disk.queue("read_ahead_kb"), "read_ahead_kb restored");
    assertEquals(maxSectors, disk.queue("max_sectors_kb"), "max_sectors_kb restored");
    assertEquals(scheduler, disk.scheduler(), "scheduler restored");
  }

  @Test
  void appliesEveryCellReadsBackStoresAndRestores() throws Exception {
    Path m =
        matrix(
            """
            name: e2e-apply
            matrix:
              local.block.DEV.scheduler: [mq-deadline, none]
              local.block.DEV.read_ahead_kb: [256, 2048]
              case:
                plain: {}
                small:
                  local.block.DEV.max_sectors_kb: 64
            repeat: 2
            warmup: 1
            before_trial: [sync, drop_caches]
            workload:
              dd:
                input: /dev/DEV
                output: /dev/null
                bs: 1M
                total: 8MiB
            """);
    Path db = dir.resolve("t.db");
    Cli.Result r = Cli.tunelab("run", m.toString(), "--db", db.toString());
    assertEquals(0, r.code(), r.all());
    assertOriginals();

    assertEquals(
        List.of(List.of("24", "8")),
        SqliteQuery.rows(db, "select count(*), sum(warmup) from trials where status = 'ok'"));
    // Every trial read back what it asked for; 'default' ran at the original value.
    assertEquals(
        List.of(),
        SqliteQuery.rows(
            db,
            "select knob, requested, effective, original from settings where"
                + " (requested <> 'default' and requested <> effective)"
                + " or (requested = 'default' and effective <> original)"));
    assertEquals(
        List.of(List.of(maxSectors)),
        SqliteQuery.rows(
            db, "select distinct original from settings where knob like '%max_sectors_kb'"));
    // Between cells only changed knobs are written: the scheduler changes only between
    // blocks of cells in sequential order, so far fewer writes than trials.
    List<List<String>> schedulerWrites =
        SqliteQuery.rows(
            db, "select count(*) from settings where knob like '%scheduler' and written = 1");
    assertTrue(Integer.parseInt(schedulerWrites.get(0).get(0)) <= 2, schedulerWrites.toString());
    // Statistics leave warm-ups out: 2 measured repetitions per cell.
    assertEquals(
        List.of(List.of("8", "2")),
        SqliteQuery.rows(
            db,
            "select count(*), min(n) from cell_stats where job = 'all' and metric = 'mib_per_s'"));
    assertTrue(r.out().contains("MiB/s"), r.out());
  }

  @Test
  void sysctlsAreAppliedReadBackAndRestoredIncludingTheDirtyPair() throws Exception {
    Path[] files = {
      Path.of("/proc/sys/vm/dirty_ratio"),
      Path.of("/proc/sys/vm/dirty_bytes"),
      Path.of("/proc/sys/vm/dirty_background_ratio"),
      Path.of("/proc/sys/vm/dirty_background_bytes")
    };
    List<String> before = new ArrayList<>();
    for (Path f : files) {
      before.add(LoopDisk.readProc(f));
    }
    Path m =
        matrix(
            """
            name: e2e-sysctl
            settings:
              local.vm.dirty_background_ratio: 7
            matrix:
              case:
                ratio15: {local.vm.dirty_ratio: 15}
                bytes: {local.vm.dirty_bytes: 300M}
                ratio25: {local.vm.dirty_ratio: 25}
                start: {}
            workload:
              command: cat /proc/sys/vm/dirty_ratio /proc/sys/vm/dirty_bytes
            """);
    Path db = dir.resolve("t.db");
    Cli.Result r;
    try {
      r = Cli.tunelab("run", m.toString(), "--db", db.toString());
    } finally {
      List<String> after = new ArrayList<>();
      for (Path f : files) {
        after.add(LoopDisk.readProc(f));
      }
      if (!after.equals(before)) {
        // never leave the machine mistuned, even when the assertion below fails
        for (int i = 0; i < files.length; i++) {
          if (!before.get(i).equals("0")) {
            Files.writeString(files[i], before.get(i));
          }
        }
      }
      assertEquals(before, after, "vm.dirty_* restored");
    }
    assertEquals(0, r.code(), r.all());
    String ratio = before.get(0);
    // Only one of an exclusive pair is written per cell; the kernel zeroes the other.
    assertEquals(
        List.of(
            List.of("case=ratio15", "vm.dirty_ratio", "15", "15"),
            List.of("case=ratio15", "vm.dirty_bytes", "default", "0"),
            List.of("case=bytes", "vm.dirty_ratio", "default", "0"),
            List.of("case=bytes", "vm.dirty_bytes", "300M", "314572800"),
            List.of("case=ratio25", "vm.dirty_ratio", "25", "25"),
            List.of("case=ratio25", "vm.dirty_bytes", "default", "0"),
            List.of("case=start", "vm.dirty_ratio", "default", ratio),
            List.of("case=start", "vm.dirty_bytes", "default", "0")),
        SqliteQuery.rows(
            db,
            "select c.label, s.knob, s.requested, s.effective from settings s"
                + " join trials t on t.id = s.trial_id join cells c on c.id = t.cell_id"
                + " where s.knob in ('vm.dirty_ratio', 'vm.dirty_bytes')"
                + " order by c.ordinal, s.knob desc"));
    assertEquals(
        List.of(List.of("7", "4")),
        SqliteQuery.rows(
            db,
            "select distinct effective, count(*) from settings"
                + " where knob = 'vm.dirty_background_ratio'"));
  }

  @Test
  void largerReadAheadReadsFaster() throws Exception {
    Path m =
        matrix(
            """
            name: e2e-readahead
            matrix:
              local.block.DEV.read_ahead_kb: [0, 4096]
            repeat: 3
            before_trial: [drop_caches]
            workload:
              dd:
                input: /dev/DEV
                output: /dev/null
                bs: 4K
                total: 32MiB
            """);
    Path db = dir.resolve("t.db");
    Cli.Result r = Cli.tunelab("run", m.toString(), "--db", db.toString());
    assertEquals(0, r.code(), r.all());
    List<List<String>> means =
        SqliteQuery.rows(
            db,
            "select p.value, s.mean from cell_stats s join cells c on c.id = s.cell_id"
                + " join cell_params p on p.cell_id = c.id"
                + " where s.job = 'all' and s.metric = 'mib_per_s' order by c.ordinal");
    double none = Double.parseDouble(means.get(0).get(1));
    double large = Double.parseDouble(means.get(1).get(1));
    assertTrue(large > 1.5 * none, "read_ahead_kb 4096 should read faster than 0: " + means);
    assertOriginals();
  }

  @Test
  void concurrentDdProcessesGetTheirOwnRegionsAndAnAggregate() throws Exception {
    Path m =
        matrix(
            """
            name: e2e-processes
            matrix:
              procs: [1, 2]
            workload:
              dd:
                input: /dev/DEV
                output: /dev/null
                bs: 1M
                total: 8MiB
                flags: [iflag=direct]
                processes: ${procs}
            """);
    Path db = dir.resolve("t.db");
    Cli.Result r = Cli.tunelab("run", m.toString(), "--db", db.toString());
    assertEquals(0, r.code(), r.all());
    assertEquals(
        List.of(
            List.of("1", "all", "8388608"),
            List.of("1", "dd", "8388608"),
            List.of("1", "dd.0", "8388608"),
            List.of("2", "all", "16777216"),
            List.of("2", "dd", "16777216"),
            List.of("2", "dd.0", "8388608"),
            List.of("2", "dd.1", "8388608")),
        SqliteQuery.rows(
            db,
            "select c.ordinal, s.job, cast(s.value as integer) from samples s"
                + " join trials t on t.id = s.trial_id join cells c on c.id = t.cell_id"
                + " where s.metric = 'bytes' order by c.ordinal, s.job"));
  }

  @Test
  void failingWorkloadIsRecordedAndSettingsRestored() throws Exception {
    Path m =
        matrix(
            """
            name: e2e-fail
            matrix:
              local.block.DEV.read_ahead_kb: [1024, 2048]
            workload:
              command: echo broken >&2; exit 3
            """);
    Path db = dir.resolve("t.db");
    Cli.Result r = Cli.tunelab("run", m.toString(), "--db", db.toString());
    assertEquals(1, r.code(), r.all());
    List<List<String>> trials = SqliteQuery.rows(db, "select status, error from trials");
    assertEquals(2, trials.size());
    for (List<String> t : trials) {
      assertEquals("failed", t.get(0));
      assertTrue(t.get(1).contains("exited 3") && t.get(1).contains("broken"), t.get(1));
    }
    assertOriginals();
  }

  @Test
  void badInputTouchesNothingAndWritesNoExperiment() throws Exception {
    Path db = dir.resolve("t.db");
    String workload = "workload:\n  dd: {input: /dev/DEV, output: /dev/null, bs: 1M, count: 1}\n";
    String[][] cases = {
      {"name: x\nmatrix: [oops\n", "2"},
      {"name: x\nrepaet: 3\nmatrix:\n  local.block.DEV.read_ahead_kb: [4096]\n" + workload, "2"},
      {"name: x\nmatrix:\n  local.block.DEV.read_ahaed_kb: [4096]\n" + workload, "2"},
      {"name: x\nmatrix:\n  local.block.nosuchdisk9.read_ahead_kb: [4096]\n" + workload, "3"},
      {
        "name: x\nmatrix:\n  local.block.DEV.read_ahead_kb: [4096]\n  local.block.DEV.scheduler: [cfq]\n"
            + workload,
        "3"
      },
      {"name: x\nmatrix:\n  local.block.DEV.max_sectors_kb: [999999999]\n" + workload, "3"},
    };
    for (String[] c : cases) {
      Path m = matrix(c[0]);
      Cli.Result r = Cli.tunelab("run", m.toString(), "--db", db.toString());
      assertEquals(Integer.parseInt(c[1]), r.code(), c[0] + "\n" + r.all());
      assertTrue(r.err().contains(m.toString()) || r.err().contains("host local"), r.err());
      assertFalse(r.err().contains("Exception"), r.err());
      assertOriginals();
      if (Files.exists(db)) {
        assertEquals(
            List.of(List.of("0")), SqliteQuery.rows(db, "select count(*) from experiments"));
      }
    }
    Path m = matrix("name: x\nmatrix:\n  local.block.DEV.read_ahead_kb: [4096]\n" + workload);
    Cli.Result r = Cli.tunelab("run", m.toString(), "--db", "/proc/tunelab-no/t.db");
    assertEquals(2, r.code(), r.all());
    assertTrue(r.err().contains("/proc/tunelab-no/t.db"), r.err());
    assertOriginals();
  }
}
