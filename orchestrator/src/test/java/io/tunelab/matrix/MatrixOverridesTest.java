package io.tunelab.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tunelab.plan.Cell;
import io.tunelab.plan.MatrixExpander;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What {@code --set NAME=VALUE} does to a loaded matrix, beyond the golden examples. */
class MatrixOverridesTest {
  private static final String WORKLOAD = "workload: {command: run}\n";
  private static final String CASES =
      """
      name: cases
      params:
        disk: sdb
      matrix:
        local.block.${disk}.read_ahead_kb: [128, 2048]
        mount:
          v3: {opts: vers=3}
          v4: {opts: vers=4.2}
        bs: [1M, 64K]
      exclude:
        - {mount: v4, bs: 64K}
      include:
        - local.block.${disk}.read_ahead_kb: 4096
          mount: v3
          bs: 1M
      workload:
        command: run ${opts} ${bs}
      """;

  private static Matrix load(String yaml, String... set) {
    Map<String, String> overrides = new LinkedHashMap<>();
    for (String s : set) {
      overrides.put(s.substring(0, s.indexOf('=')), s.substring(s.indexOf('=') + 1));
    }
    return MatrixLoader.load("m.yaml", yaml, JobFiles.NONE, overrides);
  }

  private static List<String> labels(Matrix m) {
    return MatrixExpander.expand(m).stream().map(Cell::label).toList();
  }

  @Test
  void aCasesAxisNarrowsToOneCaseWithItsParameters() {
    Matrix m = load(CASES, "mount=v4");

    // the include gives mount another case, and the exclude still removes v4 with 64K
    assertEquals(
        List.of("read_ahead_kb=128/mount=v4/bs=1M", "read_ahead_kb=2048/mount=v4/bs=1M"),
        labels(m));
    assertEquals(List.of(), m.include());
    assertEquals(List.of("v4"), m.axes().get(1).values());
    assertEquals(Map.of("opts", "vers=4.2"), m.axes().get(1).cases().get("v4"));
  }

  @Test
  void anAxisIsNamedAsWrittenAsSubstitutedOrByItsLabel() {
    for (String name :
        List.of(
            "local.block.${disk}.read_ahead_kb",
            "local.block.sdb.read_ahead_kb",
            "read_ahead_kb")) {
      Matrix m = load(CASES, name + "=2048");
      assertEquals(List.of("2048"), m.axes().get(0).values(), name);
    }
  }

  @Test
  void aNewValueDropsTheFiltersThatNameAnother() {
    Matrix m = load(CASES, "bs=4K");

    assertEquals(List.of(), m.exclude());
    assertEquals(List.of(), m.include());
    assertEquals(
        List.of(
            "read_ahead_kb=128/mount=v3/bs=4K",
            "read_ahead_kb=128/mount=v4/bs=4K",
            "read_ahead_kb=2048/mount=v3/bs=4K",
            "read_ahead_kb=2048/mount=v4/bs=4K"),
        labels(m));
  }

  @Test
  void theFiltersThatNameTheChosenValueStay() {
    Matrix m = load(CASES, "read_ahead_kb=4096", "bs=64K");

    assertEquals(List.of(Map.of("mount", "v4", "bs", "64K")), m.exclude());
    assertEquals(List.of("read_ahead_kb=4096/mount=v3/bs=64K"), labels(m));
  }

  @Test
  void anIncludeThatTheNarrowedAxesNowMakeIsDropped() {
    Matrix m = load(CASES, "read_ahead_kb=4096", "bs=1M", "mount=v3");

    assertEquals(List.of("read_ahead_kb=4096/mount=v3/bs=1M"), labels(m));
  }

  @Test
  void anEmptyParamsEntryMustBeGiven() {
    String yaml = "name: e\nparams:\n  export:\nworkload:\n  command: mount ${export}\n";

    assertEquals(
        "m.yaml:3:10: params.export: no value: write one here or give it with --set"
            + " export=VALUE",
        assertThrows(MatrixException.class, () -> load(yaml)).getMessage());
    Matrix m = load(yaml, "export=srv1:/export");
    assertEquals(Map.of("export", "srv1:/export"), m.params());
    assertEquals(
        "mount srv1:/export", ((Workload.Command) m.workload().jobs().get(0).work()).command());
  }

  @Test
  void paramsReachSetupAndTeardownWhereParametersMayNot() {
    Matrix m =
        load(
            "name: s\nparams:\n  dir: /mnt/a\nsetup:\n  - run: mkdir -p ${dir}\n"
                + "teardown:\n  - run: rmdir ${dir}\n"
                + WORKLOAD,
            "dir=/mnt/b");

    assertEquals("mkdir -p /mnt/b", m.setup().get(0).run());
    assertEquals("rmdir /mnt/b", m.teardown().get(0).run());
  }

  @Test
  void aLiteralDollarBraceStaysLiteral() {
    Matrix m = load("name: l\nparams:\n  d: x\nsetup:\n  - run: echo $${d} ${d}\n" + WORKLOAD);

    assertEquals("echo $${d} x", m.setup().get(0).run());
  }
}
