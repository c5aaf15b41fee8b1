package io.tunelab.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.MatrixException;
import io.tunelab.matrix.MatrixLoader;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExperimentPlanTest {
  private static final String WORKLOAD = "workload: {command: run}\n";

  private static Matrix load(String yaml) {
    return MatrixLoader.load("m.yaml", yaml);
  }

  @Test
  void excludingEverythingIsAnError() {
    Matrix m = load("name: x\nmatrix:\n  a: [1]\nexclude:\n  - {a: 1}\n" + WORKLOAD);
    assertEquals(
        "m.yaml:4:1: exclude: removes every cell of the matrix",
        assertThrows(MatrixException.class, () -> ExperimentPlan.of(m)).getMessage());
  }

  @Test
  void cellsTrialsAndRecordedShapeComeFromTheMatrix() {
    ExperimentPlan plan =
        ExperimentPlan.of(
            load(
                "name: p\nmatrix:\n  bs: [1M, 2M]\nrepeat: 2\nwarmup: 1\norder: shuffle\nseed: 7\n"
                    + WORKLOAD));
    assertEquals(List.of("bs=1M", "bs=2M"), plan.cells().stream().map(Cell::label).toList());
    assertEquals(6, plan.trials().size());
    assertEquals(PlanBuilder.build(2, 2, 1, Matrix.Order.SHUFFLE, 7), plan.trials());
    assertEquals("shuffle", plan.orderName());
    assertEquals("m.yaml", plan.matrixPath());
  }

  @Test
  void trialVariablesAreCapturesThenParametersThenRep() {
    Cell cell = new Cell(1, "bs=1M", Map.of("bs", "1M"), Map.of(), Map.of("bs", "1M"));
    assertEquals(
        Map.of("dev", "loop3", "bs", "1M", "rep", "2"), cell.trialVars(Map.of("dev", "loop3"), 2));
  }
}
