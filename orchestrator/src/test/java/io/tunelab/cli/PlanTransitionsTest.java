package io.tunelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tunelab.testing.Cli;
import io.tunelab.testing.GoldenFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code plan}: what each order costs in transitions, and fewest-changes' run order. */
class PlanTransitionsTest {
  @TempDir Path dir;

  /** A cell step that uses only threads (3 values), innermost, × 4 read_ahead_kb values. */
  private Path matrix(String order) throws IOException {
    Path m = dir.resolve("threads.yaml");
    Files.writeString(
        m,
        String.join(
            "\n",
            "name: threads",
            "setup:",
            "  - run: echo loop0",
            "    capture: dev",
            "cell_setup:",
            "  - run: echo ${threads} >> /tmp/setups.log",
            "matrix:",
            "  local.block.${dev}.read_ahead_kb: [128, 256, 512, 1024]",
            "  threads: [1, 2, 4]",
            "order: " + order,
            "workload: {command: run}",
            ""));
    return m;
  }

  @Test
  void sequentialWithTheStepsAxisInnermostRunsTheStepAtEveryCellFewestChangesOncePerValue()
      throws IOException {
    Cli.Result r =
        Cli.tunelab("plan", "--summary", "--transitions", matrix("sequential").toString());
    assertEquals(0, r.code(), r.all());
    GoldenFiles.assertMatches("plan/transitions.txt", r.out());
  }

  @Test
  void summaryLeavesTheTransitionsOutUnlessAsked() throws IOException {
    Cli.Result r = Cli.tunelab("plan", "--summary", matrix("sequential").toString());
    assertEquals(0, r.code(), r.all());
    assertEquals(false, r.out().contains("transitions"), r.out());
    assertEquals(1, r.out().lines().count(), r.out());
    Cli.Result json =
        Cli.tunelab("plan", "--summary", "--format", "json", matrix("sequential").toString());
    assertEquals(0, json.code(), json.all());
    assertEquals(false, json.out().contains("\"transitions\""), json.out());
  }

  @Test
  void fewestChangesListsTheCellsInTheOrderTheyFirstRun() throws IOException {
    Cli.Result r = Cli.tunelab("plan", matrix("fewest-changes").toString());
    assertEquals(0, r.code(), r.all());
    GoldenFiles.assertMatches("plan/fewest-changes-cells.txt", r.out());
  }

  @Test
  void jsonGivesTheCountsTheTransitionsOfEachOrderAndTheCellsInRunOrder() throws IOException {
    Cli.Result r = Cli.tunelab("plan", "--format", "json", matrix("fewest-changes").toString());
    assertEquals(0, r.code(), r.all());
    GoldenFiles.assertMatches("plan/fewest-changes.json", r.out());
    Cli.Result summary =
        Cli.tunelab(
            "plan",
            "--summary",
            "--transitions",
            "--format",
            "json",
            matrix("sequential").toString());
    assertEquals(0, summary.code(), summary.all());
    assertEquals(false, summary.out().contains("cell_list"), summary.out());
    assertEquals(true, summary.out().contains("\"transitions\""), summary.out());
  }
}
