package io.tunelab.plan;

import io.tunelab.matrix.Axis;
import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.Step;
import io.tunelab.matrix.Substitution;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The parameters the {@code cell_setup} and {@code cell_teardown} steps use, and each cell's values
 * of them: two cells with the same values share one setup, so a cell step runs again only when one
 * of these values changes. Captures of cell steps follow from the steps' own variables; setup
 * captures and {@code params:} entries are the same for every cell.
 */
public final class CellStepValues {
  private final boolean steps;
  private final List<String> names;

  private CellStepValues(boolean steps, List<String> names) {
    this.steps = steps;
    this.names = names;
  }

  /** The variables the cell steps of {@code m} name, in the order they are first named. */
  public static CellStepValues of(Matrix m) {
    Set<String> names = new LinkedHashSet<>();
    Stream.of(m.cellSetup(), m.cellTeardown())
        .flatMap(List::stream)
        .map(Step::run)
        .forEach(run -> names.addAll(Substitution.names(run)));
    return new CellStepValues(
        !m.cellSetup().isEmpty() || !m.cellTeardown().isEmpty(), List.copyOf(names));
  }

  /** Whether the matrix has no cell steps at all. */
  public boolean none() {
    return !steps;
  }

  /** What the cell steps see of {@code cell}: its values of the variables they name. */
  public List<String> of(Cell cell) {
    List<String> values = new ArrayList<>(names.size());
    for (String name : names) {
      values.add(cell.vars().get(name));
    }
    return values;
  }

  /** Whether a cell set up as {@code a} is set up as {@code b} too. */
  public boolean same(Cell a, Cell b) {
    for (String name : names) {
      if (!java.util.Objects.equals(a.vars().get(name), b.vars().get(name))) {
        return false;
      }
    }
    return true;
  }

  /** Whether the cell steps use {@code axis}: its parameter, or a parameter its cases set. */
  boolean uses(Axis axis) {
    return switch (axis.kind()) {
      case PARAMETER -> names.contains(axis.name());
      case KNOB -> false;
      case CASES ->
          axis.cases().values().stream()
              .flatMap(c -> c.keySet().stream())
              .anyMatch(names::contains);
    };
  }
}
