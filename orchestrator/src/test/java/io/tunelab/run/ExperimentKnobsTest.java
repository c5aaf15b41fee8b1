package io.tunelab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.MatrixLoader;
import io.tunelab.matrix.Substitution;
import io.tunelab.plan.Cell;
import io.tunelab.plan.ExperimentPlan;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExperimentKnobsTest {
  private static final String YAML =
      """
      name: knobs
      setup:
        - run: ls -d /sys/block/loop*
          capture: disks[]
      cell_setup:
        - run: make-disk ${size}
          capture: lun
      settings:
        local.block.${disks[*]}.scheduler: none
      matrix:
        size: [1G, 2G]
        local.block.${lun}.read_ahead_kb: [128, 4096]
        local.block.${disks[*]}.nr_requests: [64]
      exclude:
        - { size: 2G, "local.block.${lun}.read_ahead_kb": 4096 }
      workload:
        command: ./reader /dev/${lun}
      """;

  private final Matrix matrix = MatrixLoader.load("m.yaml", YAML);
  private final List<Cell> cells = ExperimentPlan.of(matrix).cells();
  private final Map<String, String> captures =
      Map.of("disks", Substitution.listValue(List.of("loop1", "loop2")));

  private static Map<String, String> names(Map<RoleKnob, String> requested) {
    Map<String, String> names = new LinkedHashMap<>();
    requested.forEach((k, v) -> names.put(k.qualified(), v));
    return names;
  }

  @Test
  void aListEntryIsOneKnobPerElementAndCellKnobsWaitForTheirCell() {
    ExperimentKnobs knobs = new ExperimentKnobs(matrix, cells, captures);
    assertEquals(
        List.of(
            "local.block.loop1.scheduler",
            "local.block.loop2.scheduler",
            "local.block.loop1.nr_requests",
            "local.block.loop2.nr_requests"),
        List.copyOf(knobs.all().keySet()));
    assertEquals(
        "/sys/block/loop2/queue/nr_requests",
        knobs.all().get("local.block.loop2.nr_requests").knob().path());
    Map<String, String> expected = new LinkedHashMap<>();
    expected.put("local.block.loop1.scheduler", "none");
    expected.put("local.block.loop2.scheduler", "none");
    expected.put("local.block.loop1.nr_requests", "64");
    expected.put("local.block.loop2.nr_requests", "64");
    assertEquals(expected, names(knobs.beforeCells(cells.get(0), captures, 1)));
  }

  @Test
  void onceACellIsSetUpItsOwnKnobsResolveWithItsCaptures() {
    ExperimentKnobs knobs = new ExperimentKnobs(matrix, cells, captures);
    Map<String, String> vars = new LinkedHashMap<>(captures);
    vars.put("lun", "sdc");
    Cell second = cells.get(1); // size=1G, read_ahead_kb=4096
    assertEquals(
        Map.of("local.block.sdc.read_ahead_kb", "4096"), names(knobs.own(second, vars, 1)));
    Map<String, String> requested = names(knobs.requested(second, vars, 1));
    assertEquals(5, requested.size(), requested.toString());
    assertEquals("4096", requested.get("local.block.sdc.read_ahead_kb"));
    assertEquals("none", requested.get("local.block.loop2.scheduler"));
  }

  @Test
  void anEmptyListSetsNothing() {
    Map<String, String> none = Map.of("disks", Substitution.listValue(List.of()));
    ExperimentKnobs knobs = new ExperimentKnobs(matrix, cells, none);
    assertEquals(Map.of(), knobs.all());
    assertEquals(Map.of(), names(knobs.beforeCells(cells.get(0), none, 1)));
  }

  @Test
  void knobValuesAreSubstituted() {
    Matrix m =
        MatrixLoader.load(
            "m.yaml",
            """
            name: values
            cell_setup:
              - run: pick-ratio ${ratio}
                capture: picked
            matrix:
              ratio: [10, 20]
              local.vm.dirty_ratio: ["${ratio}"]
              local.vm.dirty_background_ratio: ["${picked}"]
            workload:
              command: "true"
            """);
    List<Cell> cs = ExperimentPlan.of(m).cells();
    ExperimentKnobs knobs = new ExperimentKnobs(m, cs, Map.of());
    assertEquals(List.of("local.vm.dirty_ratio"), List.copyOf(knobs.all().keySet()));
    assertEquals(
        Map.of("local.vm.dirty_ratio", "20"), names(knobs.beforeCells(cs.get(1), Map.of(), 1)));
    assertEquals(
        Map.of("local.vm.dirty_background_ratio", "5"),
        names(knobs.own(cs.get(1), Map.of("picked", "5"), 1)));
  }
}
