package io.tunelab.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.MatrixLoader;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class MatrixExpanderTest {
  /** Two axes with an exclude and an include. */
  private static final String FILTERS =
      "name: filters\n"
          + "matrix:\n"
          + "  a: [1, 2]\n"
          + "  b: [x, y]\n"
          + "exclude:\n"
          + "  - {a: 1, b: y}\n"
          + "include:\n"
          + "  - {a: 3, b: y}\n"
          + "workload: {command: run}\n";

  private static Matrix load(String yaml) {
    return MatrixLoader.load("m.yaml", yaml);
  }

  private static List<String> labels(Matrix m) {
    return MatrixExpander.expand(m).stream().map(Cell::label).collect(Collectors.toList());
  }

  @Test
  void firstAxisVariesSlowest() {
    Matrix m =
        load(
            "name: order\n"
                + "matrix:\n"
                + "  a: [1, 2]\n"
                + "  b: [x, y, z]\n"
                + "workload: {command: run}\n");
    assertEquals(
        List.of("a=1/b=x", "a=1/b=y", "a=1/b=z", "a=2/b=x", "a=2/b=y", "a=2/b=z"), labels(m));
    List<Cell> cells = MatrixExpander.expand(m);
    for (int i = 0; i < cells.size(); i++) {
      assertEquals(i + 1, cells.get(i).ordinal());
    }
  }

  @Test
  void excludeMatchesOnEveryPairOfAnEntryAndIncludesComeLast() {
    Matrix m = load(FILTERS);
    assertEquals(List.of("a=1/b=x", "a=2/b=x", "a=2/b=y", "a=3/b=y"), labels(m));
    assertEquals(4, MatrixExpander.count(m));
    assertEquals(4, MatrixExpander.expand(m).get(3).ordinal());
  }

  @Test
  void cellHoldsParamsKnobsAndVarsInOrder() {
    Matrix m =
        load(
            "name: maps\n"
                + "settings:\n"
                + "  local.vm.dirty_ratio: 20\n"
                + "matrix:\n"
                + "  local.block.sda.read_ahead_kb: [default, 512]\n"
                + "  bs: [1M]\n"
                + "  case:\n"
                + "    fast: {local.block.sda.nr_requests: 256, threads: 4}\n"
                + "workload:\n  command: run --bs ${bs} --threads ${threads}\n");
    Cell c = MatrixExpander.expand(m).get(1);
    assertEquals("read_ahead_kb=512/bs=1M/case=fast", c.label());
    assertEquals(
        List.of("local.block.sda.read_ahead_kb", "bs", "case"), List.copyOf(c.params().keySet()));
    assertEquals("fast", c.params().get("case"));
    assertEquals(
        Map.of(
            "local.vm.dirty_ratio", "20",
            "local.block.sda.read_ahead_kb", "512",
            "local.block.sda.nr_requests", "256"),
        c.knobs());
    assertEquals(
        List.of(
            "local.vm.dirty_ratio", "local.block.sda.read_ahead_kb", "local.block.sda.nr_requests"),
        List.copyOf(c.knobs().keySet()));
    assertEquals(Map.of("bs", "1M", "threads", "4"), c.vars());
    assertTrue(c.vars().containsKey("threads"));
    assertFalse(c.vars().containsKey("case"));
    assertThrows(UnsupportedOperationException.class, () -> c.vars().put("x", "y"));
  }

  @Test
  void cellsShareTheirKeysSoTheyStaySmall() {
    Matrix m =
        load(
            "name: shared\n"
                + "matrix:\n"
                + "  a: [1, 2, 3]\n"
                + "  local.vm.dirty_ratio: [1, 2]\n"
                + "workload: {command: run}\n");
    List<Cell> cells = MatrixExpander.expand(m);
    Iterator<String> first = cells.get(0).knobs().keySet().iterator();
    Iterator<String> last = cells.get(5).knobs().keySet().iterator();
    assertSame(first.next(), last.next());
  }

  @Test
  void knobAxesSharingALabelAreLabelledInFull() {
    Matrix m =
        load(
            "name: labels\n"
                + "roles: {client: local, server: srv1}\n"
                + "matrix:\n"
                + "  client.block.sdb.read_ahead_kb: [128]\n"
                + "  server.block.sdb.read_ahead_kb: [256]\n"
                + "  server.block.sdb.scheduler: [none]\n"
                + "workload: {on: client, command: run}\n");
    assertEquals(
        List.of(
            "client.block.sdb.read_ahead_kb=128/server.block.sdb.read_ahead_kb=256/scheduler=none"),
        labels(m));
  }

  @Test
  void streamIsLazy() {
    Matrix m = load(bigMatrix());
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
    long id = Thread.currentThread().getId();
    // What the thread allocates counts the cells made, whatever the machine's speed: the first of
    // 93,750 cells, made on demand, costs a sliver of what making them all does.
    long before = threads.getThreadAllocatedBytes(id);
    Cell first = MatrixExpander.stream(m).findFirst().orElseThrow();
    long one = threads.getThreadAllocatedBytes(id) - before;
    before = threads.getThreadAllocatedBytes(id);
    List<Cell> all = MatrixExpander.stream(m).toList();
    long every = threads.getThreadAllocatedBytes(id) - before;

    assertEquals(
        "a0=v0/a1=v0/a2=v0/a3=v0/a4=v0/dirty_ratio=1/a6=1/a7=1/a8=1/case=one", first.label());
    assertEquals(first, all.get(0));
    assertTrue(one * 100 < every, "first cell " + one + " bytes, all " + every + " bytes");
  }

  @Test
  void expandsAHundredThousandCells() {
    // how long this takes is bench/controller.sh's to print, not a test's to assert
    Matrix m = load(bigMatrix());
    List<Cell> cells = MatrixExpander.expand(m);
    assertEquals(100_000 - 3125 * 2, cells.size());
    assertEquals(cells.size(), MatrixExpander.count(m));
    assertEquals(cells.size(), cells.get(cells.size() - 1).ordinal());
  }

  @Test
  void listMakesTheSameCellsOnDemand() {
    Matrix m = load(bigMatrix());
    List<Cell> expanded = MatrixExpander.expand(m);
    List<Cell> list = MatrixExpander.list(m);
    assertEquals(expanded.size(), list.size());
    for (int i : new int[] {0, 1, 4_999, 31_249, 50_000, expanded.size() - 1}) {
      assertEquals(expanded.get(i), list.get(i), "cell " + (i + 1));
      assertEquals(expanded.get(i).label(), list.get(i).label());
    }
    assertThrows(IndexOutOfBoundsException.class, () -> list.get(expanded.size()));
    Matrix filtered = load(FILTERS);
    assertEquals(MatrixExpander.expand(filtered), MatrixExpander.list(filtered));
  }

  /**
   * Ten axes crossing to 100,000 cells, with settings, a knob axis, cases and an exclude (also the
   * matrix bench/controller.sh expands).
   */
  static String bigMatrix() {
    StringBuilder y =
        new StringBuilder("name: big\nsettings:\n  local.vm.dirty_background_ratio: 5\nmatrix:\n");
    for (int a = 0; a < 5; a++) {
      y.append("  a").append(a).append(": [v0, v1, v2, v3, v4]\n");
    }
    y.append("  local.vm.dirty_ratio: [1, 2]\n");
    for (int a = 6; a < 9; a++) {
      y.append("  a").append(a).append(": [1, 2]\n");
    }
    y.append("  case:\n    one: {threads: 1}\n    two: {threads: 2, local.vm.swappiness: 10}\n");
    y.append("exclude:\n  - {a6: 2, a7: 2, a8: 2, case: two}\n");
    y.append("workload:\n  command: run ${a0} ${threads}\n");
    return y.toString();
  }
}
