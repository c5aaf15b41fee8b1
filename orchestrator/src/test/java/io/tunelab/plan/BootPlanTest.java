package io.tunelab.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.MatrixException;
import io.tunelab.matrix.MatrixLoader;
import io.tunelab.testing.GoldenFiles;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The kernel axis in the plan: kernel-major order, boots split across repetitions, boot counts. */
class BootPlanTest {
  private static final String A = "6.1.0-50-amd64";
  private static final String B = "6.1.0-47-amd64";

  private static Matrix load(String extra) {
    return MatrixLoader.load(
        "k.yaml",
        "name: k\nroles: {client: cli1, server: srv1}\n"
            + "matrix:\n  bs: [1M, 4M]\n  client.kernel: ["
            + A
            + ", "
            + B
            + "]\n"
            + extra
            + "workload: {command: run, on: client}\n");
  }

  /** One line per trial: seq, label, rep, the client's release and boot round. */
  private static String render(Matrix m) {
    ExperimentPlan plan = ExperimentPlan.of(m);
    BootPlan boots = BootPlan.of(m);
    StringBuilder out = new StringBuilder("seq cell                        rep kernel round\n");
    for (Trial t : plan.trials()) {
      Cell cell = plan.cells().get(t.cellOrdinal() - 1);
      BootPlan.Want w = boots.wants(cell, t.rep()).get("cli1");
      out.append(
          String.format(
              "%3d %-27s %3d %s %d%n", t.seq(), cell.label(), t.rep(), w.release(), w.round()));
    }
    return out.toString();
  }

  @Test
  void sequentialIsKernelMajorWhateverTheAxisOrder() {
    GoldenFiles.assertMatches("plan/kernel-major-sequential.txt", render(load("repeat: 2\n")));
  }

  @Test
  void bootsSplitEachCellsRepetitionsInConsecutiveChunks() {
    GoldenFiles.assertMatches(
        "plan/kernel-major-boots2-shuffle.txt",
        render(
            load(
                "repeat: 3\nwarmup: 1\nboots: {count: 2, order: grouped}\norder: shuffle\n"
                    + "seed: 5\n")));
  }

  @Test
  void interleavedBootsAreSeededRoundsOfEveryRelease() {
    GoldenFiles.assertMatches(
        "plan/kernel-interleaved-boots3.txt", render(load("repeat: 3\nboots: 3\nseed: 11\n")));
    Set<List<BootPlan.Want>> orders = new HashSet<>();
    for (long seed = 1; seed <= 20; seed++) {
      List<BootPlan.Want> blocks = plannedBlocks(load("repeat: 3\nboots: 3\nseed: " + seed + "\n"));
      assertEquals(6, blocks.size(), "seed " + seed + ": " + blocks);
      for (int round = 1; round <= 3; round++) {
        List<BootPlan.Want> these = blocks.subList(2 * round - 2, 2 * round);
        assertEquals(
            Set.of(new BootPlan.Want(A, round), new BootPlan.Want(B, round)),
            Set.copyOf(these),
            "seed " + seed + ": round " + round + " is one boot of each release: " + blocks);
      }
      assertEquals(
          blocks,
          plannedBlocks(load("repeat: 3\nboots: 3\nseed: " + seed + "\n")),
          "the same seed, the same order");
      orders.add(blocks);
    }
    assertTrue(orders.size() > 2, "the seed draws the order: " + orders);
  }

  private static List<BootPlan.Want> plannedBlocks(Matrix m) {
    ExperimentPlan p = ExperimentPlan.of(m);
    BootPlan boots = BootPlan.of(m);
    List<BootPlan.Want> blocks = new ArrayList<>();
    for (Trial t : p.trials()) {
      BootPlan.Want w = boots.wants(p.cells().get(t.cellOrdinal() - 1), t.rep()).get("cli1");
      if (blocks.isEmpty() || !blocks.get(blocks.size() - 1).equals(w)) {
        blocks.add(w);
      }
    }
    return blocks;
  }

  @Test
  void shuffleNeverCrossesAKernelOrABoot() {
    for (long seed = 0; seed < 30; seed++) {
      Matrix m = load("repeat: 4\nboots: 2\norder: shuffle\nseed: " + seed + "\n");
      ExperimentPlan p = ExperimentPlan.of(m);
      BootPlan boots = BootPlan.of(m);
      Set<BootPlan.Want> left = new HashSet<>();
      BootPlan.Want last = null;
      for (Trial t : p.trials()) {
        BootPlan.Want w = boots.wants(p.cells().get(t.cellOrdinal() - 1), t.rep()).get("cli1");
        if (!w.equals(last)) {
          assertTrue(left.add(w), "seed " + seed + ": block " + w + " comes back");
          last = w;
        }
      }
      assertEquals(4, left.size());
    }
  }

  @Test
  void likeBootsBootTheStartReleaseTooBeforeMeasuringIt() {
    Matrix m = load("repeat: 2\n");
    ExperimentPlan p = ExperimentPlan.of(m);
    BootPlan boots = BootPlan.of(m);
    assertEquals(List.of("cli1"), List.copyOf(boots.hosts()));
    assertTrue(boots.like("cli1"));
    assertEquals(new BootPlan.Want(A, 0), boots.start("cli1", A));
    assertEquals(3, boots.bootsNeeded("cli1", p.trials(), p.cells(), A), "A again, B, home");
    assertEquals(2, boots.bootsNeeded("cli1", p.trials(), p.cells(), B), "A, B again: home");
    assertEquals(3, boots.bootsNeeded("cli1", p.trials(), p.cells(), "6.6.0"), "A, B, home");
    Matrix m2 = load("repeat: 2\nboots: {count: 2, order: grouped}\n");
    ExperimentPlan twice = ExperimentPlan.of(m2);
    assertEquals(
        5,
        BootPlan.of(m2).bootsNeeded("cli1", twice.trials(), twice.cells(), A),
        "A, A again, B, B again, back to A");
  }

  @Test
  void withoutLikeBootsTheStartReleaseIsMeasuredOnTheBootItStartedOn() {
    Matrix m = load("repeat: 2\nboots: {like: false}\n");
    ExperimentPlan p = ExperimentPlan.of(m);
    BootPlan boots = BootPlan.of(m);
    assertFalse(boots.like("cli1"));
    assertEquals(new BootPlan.Want(A, 1), boots.start("cli1", A));
    assertEquals(2, boots.bootsNeeded("cli1", p.trials(), p.cells(), A), "into B, back to A");
    assertEquals(2, boots.bootsNeeded("cli1", p.trials(), p.cells(), B), "into A, back to B");
    assertEquals(3, boots.bootsNeeded("cli1", p.trials(), p.cells(), "6.6.0"), "A, B, home");
    Matrix m2 = load("repeat: 2\nboots: {count: 2, order: grouped, like: false}\n");
    ExperimentPlan twice = ExperimentPlan.of(m2);
    assertEquals(
        4,
        BootPlan.of(m2).bootsNeeded("cli1", twice.trials(), twice.cells(), A),
        "A again, B, B again, back to A");
  }

  @Test
  void aKernelSetAloneIsNoAxisAndBootsNoLikeBoot() {
    Matrix m =
        MatrixLoader.load(
            "s.yaml",
            "name: s\nroles: {client: cli1}\nsettings: {client.kernel: "
                + A
                + "}\nmatrix:\n  bs: [1M, 4M]\nworkload: {command: run}\n");
    ExperimentPlan p = ExperimentPlan.of(m);
    BootPlan boots = BootPlan.of(m);
    assertFalse(boots.like("cli1"));
    assertEquals(0, boots.bootsNeeded("cli1", p.trials(), p.cells(), A));
  }

  @Test
  void aSearchRoundRunsInBlocksOfOneReleaseThatAlternateFromRoundToRound() {
    Matrix m = load("");
    List<Cell> cells = ExperimentPlan.of(m).cells(); // 1M/A, 1M/B, 4M/A, 4M/B
    BootPlan boots = BootPlan.of(m);
    List<Integer> drawn = List.of(4, 1, 2, 3);

    assertEquals(List.of(1, 3, 4, 2), boots.blocks(drawn, cells, 1), "A's block, then B's");
    assertEquals(List.of(4, 2, 1, 3), boots.blocks(drawn, cells, 2), "B's, then A's");
    assertEquals(List.of(3, 2), boots.blocks(List.of(2, 3), cells, 3), "A's first again");
    Matrix none =
        MatrixLoader.load("n.yaml", "name: n\nmatrix:\n  bs: [1M, 4M]\nworkload: {command: run}\n");
    assertEquals(
        List.of(2, 1),
        BootPlan.of(none).blocks(List.of(2, 1), ExperimentPlan.of(none).cells(), 1),
        "without a kernel axis the round keeps its order");
  }

  @Test
  void aHostNotNamedKeepsItsKernel() {
    assertTrue(BootPlan.of(load("")).hosts().stream().noneMatch("srv1"::equals));
    Matrix none =
        MatrixLoader.load("n.yaml", "name: n\nmatrix:\n  bs: [1M]\nworkload: {command: run}\n");
    assertTrue(BootPlan.of(none).none());
  }

  @Test
  void theLocalHostCannotBeBooted() {
    Matrix m =
        MatrixLoader.load(
            "l.yaml", "name: l\nmatrix:\n  local.kernel: [" + A + "]\nworkload: {command: run}\n");
    MatrixException e = assertThrows(MatrixException.class, () -> BootPlan.of(m));
    assertTrue(e.getMessage().contains("role local is the local host"), e.getMessage());
    assertEquals(2, e.exitCode());
  }

  @Test
  void twoRolesOfOneHostCannotEachNameItsKernel() {
    MatrixException e =
        assertThrows(
            MatrixException.class,
            () ->
                MatrixLoader.load(
                    "t.yaml",
                    "name: t\nroles: {a: h1, b: h1}\nmatrix:\n  a.kernel: ["
                        + A
                        + "]\n  b.kernel: ["
                        + B
                        + "]\nworkload: {command: run, on: a}\n"));
    assertTrue(e.getMessage().contains("both roles running on host 'h1'"), e.getMessage());
  }
}
