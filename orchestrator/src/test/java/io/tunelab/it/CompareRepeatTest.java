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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code repeat: {min, max, target, compare: AXIS}} on a loop disk whose scheduler is the compared
 * axis: the cells that differ only in the scheduler stop together once their pilots fixed the
 * count, and the report names per group the ratio's interval (the one {@code compare --axis}
 * prints) and whether the target held.
 */
@Integration
class CompareRepeatTest {
  @TempDir Path dir;
  @RegisterExtension final LoopDiskExtension disks = new LoopDiskExtension(16);
  LoopDisk disk;
  String scheduler;

  @BeforeEach
  void disk() throws Exception {
    disk = disks.disk();
    scheduler = disk.scheduler();
  }

  private Path matrix(String name, String workload) throws Exception {
    Path file = dir.resolve(name + ".yaml");
    Files.writeString(
        file,
        ("""
        name: NAME
        matrix:
          local.block.DEV.scheduler: [none, mq-deadline]
          spread: [0, 50]
        repeat: {min: 2, max: 6, target: 5%, compare: local.block.DEV.scheduler}
        order: rounds
        seed: 3
        workload:
        """
                + workload)
            .replace("NAME", name)
            .replace("DEV", disk.dev));
    return file;
  }

  /** The count of ok and skipped trials per cell, {@code label: ok N, skipped M}. */
  private static List<List<String>> counts(Path db) throws Exception {
    return SqliteQuery.rows(
        db,
        "SELECT c.ordinal, t.status, count(*) FROM trials t JOIN cells c ON c.id = t.cell_id"
            + " GROUP BY c.ordinal, t.status ORDER BY c.ordinal, t.status");
  }

  @Test
  void aQuietGroupStopsAfterItsPilotsANoisyOneRunsToMaxAndTheReportSaysWhichHeld()
      throws Exception {
    // The workload reports its own figure: steady where spread is 0, alternating where it is 50,
    // in opposite phase under the two schedulers (read back from the disk), so that even the
    // rounds' paired ratios vary.
    Path m =
        matrix(
            "compare-fixed",
            """
              command: "s=$(grep -cF '[none]' /sys/block/DEV/queue/scheduler); echo seconds $((100 + ${spread} * ((${rep} + s) % 2)))"
              parser: metrics
            """);
    Path db = dir.resolve("fixed.db");
    Cli.Result r = Cli.tunelab("run", m.toString(), "--db", db.toString());
    assertEquals(0, r.code(), r.all());
    assertEquals(scheduler, disk.scheduler(), "scheduler restored");
    String sched = "local.block." + disk.dev + ".scheduler";
    assertTrue(
        r.all()
            .contains(
                "cells 1, 3 (group spread=0) took the 2 measured trials the group's pilots asked"
                    + " for to bring the 95% CI of each ratio over "
                    + sched
                    + " within ±5%; 8 trial(s) skipped"),
        r.all());
    assertEquals(
        List.of(
            List.of("1", "ok", "2"),
            List.of("1", "skipped", "4"),
            List.of("2", "ok", "6"),
            List.of("3", "ok", "2"),
            List.of("3", "skipped", "4"),
            List.of("4", "ok", "6")),
        counts(db));
    assertEquals(
        List.of(List.of(sched)), SqliteQuery.rows(db, "SELECT repeat_compare FROM experiments"));

    Cli.Result report = Cli.tunelab("report", "--db", db.toString());
    assertEquals(0, report.code(), report.all());
    String text = report.out();
    assertTrue(
        text.contains(
            "ratio per group, 95% CI as compare --axis gives it (target ±5%): 1 of 2 held"),
        text);
    assertTrue(
        text.contains("  spread=0: mq-deadline/none +0.0% [+0.0, +0.0] ±0.0%: target held (n 2/2)"),
        text);
    assertTrue(text.contains("  spread=50: mq-deadline/none +0.0% [-"), text);
    assertTrue(text.contains(": short of the target at max (n 6/6)"), text);
  }

  @Test
  void aDdReadStopsAsItsPilotsAskAndTheReportMatchesCompare() throws Exception {
    Path m =
        matrix(
            "compare-dd",
            """
              dd: {input: /dev/DEV, output: /dev/null, bs: "1M", total: 4MiB}
            before_trial: [drop_caches]
            """);
    Path db = dir.resolve("dd.db");
    Cli.Result r = Cli.tunelab("run", m.toString(), "--db", db.toString());
    assertEquals(0, r.code(), r.all());
    assertEquals(scheduler, disk.scheduler(), "scheduler restored");
    // Both cells of a group take the same count, between min and max.
    List<List<String>> ok =
        SqliteQuery.rows(
            db,
            "SELECT c.ordinal, count(*) FROM trials t JOIN cells c ON c.id = t.cell_id"
                + " WHERE t.status = 'ok' GROUP BY c.ordinal ORDER BY c.ordinal");
    assertEquals(4, ok.size(), ok.toString());
    assertEquals(ok.get(0).get(1), ok.get(2).get(1), "group spread=0: " + ok);
    assertEquals(ok.get(1).get(1), ok.get(3).get(1), "group spread=50: " + ok);
    for (List<String> row : ok) {
      int n = Integer.parseInt(row.get(1));
      assertTrue(n >= 2 && n <= 6, ok.toString());
    }

    Cli.Result report = Cli.tunelab("report", "--db", db.toString());
    assertEquals(0, report.code(), report.all());
    String sched = "local.block." + disk.dev + ".scheduler";
    Cli.Result compare =
        Cli.tunelab("compare", "--axis", sched + "=none,mq-deadline", "--db", db.toString());
    assertEquals(0, compare.code(), compare.all());
    // Each ratio line of the report carries the interval compare prints for that row.
    Pattern line =
        Pattern.compile("  (spread=\\d+): mq-deadline/none (\\S+) (\\[[^\\]]*\\]) ±\\S+: (.*)");
    List<String> seen = new ArrayList<>();
    for (String l : report.out().lines().toList()) {
      Matcher x = line.matcher(l);
      if (x.matches()) {
        seen.add(x.group(1));
        String interval = x.group(3);
        assertTrue(
            compare.out().lines().anyMatch(c -> c.contains(interval) && c.endsWith(x.group(1))),
            interval + " of " + x.group(1) + " not in\n" + compare.out());
        assertTrue(
            x.group(4).startsWith("target held") || x.group(4).startsWith("short of the target"),
            l);
      }
    }
    assertEquals(List.of("spread=0", "spread=50"), seen, report.out());
  }
}
