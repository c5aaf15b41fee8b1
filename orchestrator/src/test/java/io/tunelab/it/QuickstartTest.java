package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Cli;
import io.tunelab.testing.Integration;
import io.tunelab.testing.SqliteQuery;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's first command, as written, on this machine. */
@Integration
class QuickstartTest {
  @TempDir Path dir;

  @Test
  void quickstartRunsEndToEndAndCleansUp() throws Exception {
    Lab.requireRoot();
    Path matrix = Lab.root().resolve("matrices/quickstart.yaml");
    Path db = dir.resolve("q.db");
    String loopsBefore = LoopDisk.sh("losetup -a | grep -c tunelab-quickstart || true").trim();

    Cli.Result r = Cli.tunelab("run", matrix.toString(), "--db", db.toString());

    assertEquals(0, r.code(), r.all());
    assertEquals(
        List.of(List.of("18", "18")),
        SqliteQuery.rows(db, "select count(*), sum(status = 'ok') from trials"));
    assertEquals(
        List.of(List.of("6")),
        SqliteQuery.rows(
            db,
            "select count(*) from cell_stats where job = 'all' and metric = 'mib_per_s' and n = 3"));
    // the loop disk the setup step created is gone again, and so is its image
    assertEquals(
        loopsBefore, LoopDisk.sh("losetup -a | grep -c tunelab-quickstart || true").trim());
    assertTrue(!Files.exists(Path.of("/var/tmp/tunelab-quickstart.img")));
    // captured variables and host facts are kept with the experiment
    assertEquals(1, SqliteQuery.rows(db, "select value from variables where name = 'dev'").size());
    assertEquals(
        List.of(List.of(LoopDisk.readProc(Path.of("/proc/sys/kernel/random/boot_id")))),
        SqliteQuery.rows(db, "select boot_id from hosts"));
    assertTrue(r.out().contains("IOPS"), r.out());
    // the first line names the run's log, which holds every line with a UTC timestamp
    String first = r.out().lines().findFirst().orElseThrow();
    assertTrue(first.startsWith("log: " + dir.resolve("tunelab-logs")), first);
    List<String> log = Files.readAllLines(Path.of(first.substring("log: ".length())));
    assertTrue(log.size() > 18, String.join("\n", log));
    for (String line : log) {
      assertTrue(line.matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z .*"), line);
    }
    assertTrue(log.stream().anyMatch(l -> l.contains("[18/18]")), String.join("\n", log));
  }
}
