package io.tunelab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tunelab.TunelabException;
import java.util.List;
import org.junit.jupiter.api.Test;

class LayoutTest {
  private static final List<String> AXES = List.of("server.block.${dev}.scheduler", "case", "bs");

  @Test
  void classicBlocksAreCasesElseAllButTheLastAxis() {
    assertEquals(
        new Layout(List.of("case"), List.of("server.block.${dev}.scheduler", "bs"), null),
        Layout.classic(AXES));
    assertEquals(
        new Layout(List.of("a", "b"), List.of("c"), null), Layout.classic(List.of("a", "b", "c")));
    assertEquals(new Layout(List.of(), List.of("bs"), null), Layout.classic(List.of("bs")));
  }

  @Test
  void rowsGivenTheRestAreBlocks() {
    assertEquals(
        new Layout(List.of("server.block.${dev}.scheduler", "case"), List.of("bs"), null),
        Layout.of(AXES, List.of("bs"), null));
  }

  @Test
  void columnsGivenTheRestSplitsAsClassic() {
    assertEquals(
        new Layout(List.of("case"), List.of("server.block.${dev}.scheduler"), "bs"),
        Layout.of(AXES, List.of(), "bs"));
    assertEquals(
        new Layout(List.of(), List.of("case"), "bs"),
        Layout.of(List.of("case", "bs"), List.of(), "bs"));
  }

  @Test
  void anAxisIsEitherRowOrColumn() {
    assertThrows(TunelabException.class, () -> Layout.of(AXES, List.of("bs"), "bs"));
    assertThrows(TunelabException.class, () -> Layout.of(AXES, List.of("bs", "bs"), null));
  }

  @Test
  void axesAreNamedAsWrittenOrByTheirShortName() {
    AxisNames names = new AxisNames(AXES);

    assertEquals("server.block.${dev}.scheduler", names.resolve("scheduler", "x"));
    assertEquals(
        "server.block.${dev}.scheduler", names.resolve("server.block.${dev}.scheduler", "x"));
    TunelabException e =
        assertThrows(TunelabException.class, () -> names.resolve("sched", "experiment 3"));
    assertEquals("experiment 3 has no axis 'sched' (axes: scheduler, case, bs)", e.getMessage());
  }
}
