package io.tunelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tunelab.testing.Cli;
import io.tunelab.testing.RepoFiles;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code plan} of a search: its space, budget and grid cost, and the race's first round. */
class PlanSearchTest {
  private static final String MATRIX =
      RepoFiles.testResources("matrix/valid/search-race.yaml").toString();

  @Test
  void aSearchsPlanIsItsSpaceBudgetAndFirstRoundNotTheGrid() {
    Cli.Result r = Cli.tunelab("plan", MATRIX);

    assertEquals(0, r.code(), r.all());
    List<String> lines = r.out().lines().toList();
    assertEquals(
        "search-race: a race for maximize mib_per_s over 18 cells, seed 7: at most 150 trials"
            + " (140 for the race, 2 x 5 to confirm the winner against default); the grid of this"
            + " space runs 18 trials a repetition",
        lines.get(0));
    // 140 / 6 is more than the space: every cell, in the seed's order.
    assertEquals("first round, in run order (18 candidates):", lines.get(1));
    assertEquals(20, lines.size(), r.out());
    assertEquals("    15  read_ahead_kb=2048/max_sectors_kb=256", lines.get(2), "the seed's order");
    assertEquals(
        List.of(lines.get(0)), Cli.tunelab("plan", "--summary", MATRIX).out().lines().toList());
  }

  @Test
  void aRaceOverAKernelAxisRunsItsFirstRoundInOneBlockPerRelease() {
    Cli.Result r =
        Cli.tunelab(
            "plan",
            RepoFiles.testResources("matrix/valid/search-kernels.yaml").toString(),
            "--hosts",
            RepoFiles.repoRoot().resolve("matrices/studies/hosts.example.yaml").toString());

    assertEquals(0, r.code(), r.all());
    List<String> round =
        r.out().lines().filter(l -> l.startsWith("  ")).map(l -> l.split("kernel=")[1]).toList();
    assertEquals(5, round.size(), r.out());
    List<String> releases =
        round.stream().map(l -> l.substring(0, l.indexOf('/'))).distinct().toList();
    assertEquals(2, releases.size(), r.out());
    // One change of release in the round: every cell of the first block, then the other's.
    long changes = 0;
    for (int i = 1; i < round.size(); i++) {
      changes +=
          round.get(i).startsWith(releases.get(0)) == round.get(i - 1).startsWith(releases.get(0))
              ? 0
              : 1;
    }
    assertEquals(1, changes, r.out());
  }

  @Test
  void aScreensPlanIsItsDesignAndItsCells() {
    String matrix = RepoFiles.testResources("matrix/valid/search-screen.yaml").toString();
    Cli.Result r = Cli.tunelab("plan", matrix);

    assertEquals(0, r.code(), r.all());
    List<String> lines = r.out().lines().toList();
    assertEquals(
        "search-screen: a screen for maximize mib_per_s over 240 cells, seed 3: full factorial"
            + " 2^4: 16 cells x 4 replicates; at most 64 trials (64 for the screen, 2 x 0 to"
            + " confirm its best cell against default); the grid of this space runs 240 trials a"
            + " repetition",
        lines.get(0));
    assertEquals(
        List.of(
            "levels, low and high:",
            "  local.block.loop0.read_ahead_kb: 128, 4096 (first and last value)",
            "  local.block.loop0.max_sectors_kb: 64, 1024 (first and last value)",
            "  local.block.loop0.scheduler: none, mq-deadline (first and last value)",
            "  local.block.loop0.nr_requests: 16, 128 (first and last value)",
            "the design's cells (16), each once a replicate:"),
        lines.subList(1, 7));
    assertEquals(23, lines.size(), r.out());
    assertEquals(
        "     1  read_ahead_kb=128/max_sectors_kb=64/scheduler=none/nr_requests=16", lines.get(7));
  }

  @Test
  void aScreenAtLevelsOfItsOwnDesignsOverThoseValues() {
    String matrix = RepoFiles.testResources("matrix/valid/search-screen-levels.yaml").toString();
    Cli.Result r = Cli.tunelab("plan", matrix);

    assertEquals(0, r.code(), r.all());
    List<String> lines = r.out().lines().toList();
    assertEquals(
        List.of(
            "levels, low and high:",
            "  local.block.loop0.read_ahead_kb: 256, 4096 (search.levels)",
            "  local.block.loop0.scheduler: mq-deadline, none (search.levels)",
            "the design's cells (4), each once a replicate:"),
        lines.subList(1, 5),
        r.out());
    assertEquals(
        List.of(
            "     4  read_ahead_kb=256/scheduler=mq-deadline",
            "     6  read_ahead_kb=4096/scheduler=mq-deadline",
            "     3  read_ahead_kb=256/scheduler=none",
            "     5  read_ahead_kb=4096/scheduler=none"),
        lines.subList(5, lines.size()),
        r.out());
  }
}
