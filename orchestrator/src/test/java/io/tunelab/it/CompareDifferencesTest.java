package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Cli;
import io.tunelab.testing.Integration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tunelab compare} of two real runs on a loop disk that differ in one fixed knob: the header
 * names that knob with both values read back, and nothing else of what the runs recorded (kernel,
 * host facts, the knob both runs set alike) shows up as a difference; nor does the compared knob of
 * an {@code --axis} compare.
 */
@Integration
class CompareDifferencesTest {
  @TempDir Path dir;
  @RegisterExtension final LoopDiskExtension disks = new LoopDiskExtension(64);
  LoopDisk disk;
  String readAhead;

  @BeforeEach
  void disk() throws Exception {
    disk = disks.disk();
    readAhead = disk.queue("read_ahead_kb");
  }

  private void run(Path db, String ra) throws Exception {
    Path m = dir.resolve("ra-" + ra + ".yaml");
    Files.writeString(
        m,
        """
        name: ra-compare
        settings:
          local.block.DEV.read_ahead_kb: RA
        matrix:
          local.block.DEV.max_sectors_kb: [64, 128]
        repeat: 3
        before_trial: [drop_caches]
        workload:
          dd:
            input: /dev/DEV
            output: /dev/null
            bs: 1M
            total: 8MiB
        """
            .replace("DEV", disk.dev)
            .replace("RA", ra));
    Cli.Result r = Cli.tunelab("run", m.toString(), "--db", db.toString());
    assertEquals(0, r.code(), r.all());
  }

  @Test
  void theHeaderNamesTheOneKnobThatDiffers() throws Exception {
    Path db = dir.resolve("t.db");
    run(db, "128");
    run(db, "256");
    assertEquals(readAhead, disk.queue("read_ahead_kb"), "read_ahead_kb restored");

    Cli.Result r = Cli.tunelab("compare", "1", "2", "--db", db.toString(), "--min-change", "2%");

    assertEquals(0, r.code(), r.all());
    List<String> differences = r.out().lines().filter(l -> l.contains(" → ")).toList();
    assertEquals(
        List.of("knob local.block." + disk.dev + ".read_ahead_kb 128 → 256"), differences, r.out());
    assertTrue(r.out().contains("verdict: better or worse when * and |%change| >= 2%"), r.out());
    assertTrue(r.out().contains("2 rows: "), r.out());

    Cli.Result axis =
        Cli.tunelab("compare", "2", "--axis", "max_sectors_kb=64,128", "--db", db.toString());
    assertEquals(0, axis.code(), axis.all());
    assertTrue(axis.out().lines().noneMatch(l -> l.contains(" → ")), axis.out());
  }
}
