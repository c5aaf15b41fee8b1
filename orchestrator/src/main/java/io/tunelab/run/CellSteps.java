package io.tunelab.run;

import io.tunelab.TunelabException;
import io.tunelab.agent.AgentException;
import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.Step;
import io.tunelab.plan.Cell;
import io.tunelab.plan.CellStepValues;
import io.tunelab.plan.ExperimentPlan;
import io.tunelab.store.OpenCell;
import io.tunelab.store.RunStore;
import io.tunelab.workload.WorkloadPlanner;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Sets one cell up at a time and tears it down: {@code cell_setup} with its captures, the checks of
 * what only the cell's captures tell (its own knobs, a captured {@code processes}), then, after its
 * trials, its own knobs back to their originals and {@code cell_teardown}. A cell that agrees with
 * the open one on every value the cell steps use keeps their work and captures and gets only the
 * checks ({@link CellVisits}). While a cell is open the store knows the cell whose {@code
 * cell_setup} ran and its captures, so that a run killed meanwhile can still tear it down: the
 * cells kept after it have the same values of the steps' variables, so its {@code cell_teardown} is
 * theirs.
 */
final class CellSteps {
  private final Matrix matrix;
  private final Hosts hosts;
  private final ExperimentKnobs knobs;
  private final Map<String, HostKnobState> states;
  private final TrialExecutor executor;
  private final RunStore store;
  private final long experimentId;
  private final Map<String, String> captures;
  private final Consumer<String> out;
  private final boolean recorded;

  private final CellStepValues values;

  /** The cell whose {@code cell_setup} ran, or null. */
  private Cell cell;

  private Map<String, String> cellCaptures = new LinkedHashMap<>();
  private Map<RoleKnob, String> own = Map.of();

  /** Paths of own knobs set back to their originals, as {@code host path}. */
  private final Set<String> setBack = new HashSet<>();

  CellSteps(
      RunContext run,
      Matrix matrix,
      ExperimentKnobs knobs,
      TrialExecutor executor,
      Map<String, String> captures) {
    this.matrix = matrix;
    this.hosts = run.hosts();
    this.knobs = knobs;
    this.states = run.states().knobs();
    this.executor = executor;
    this.store = run.store();
    this.experimentId = run.experimentId();
    this.captures = captures;
    this.out = run.out();
    this.recorded = !matrix.cellSetup().isEmpty() || !matrix.cellTeardown().isEmpty();
    this.values = CellStepValues.of(matrix);
  }

  /** The values the cell steps use, which decide whether a cell keeps the open one's steps. */
  CellStepValues values() {
    return values;
  }

  /**
   * Sets {@code next} up; returns why it could not be (a step failed, a knob named through its
   * captures was refused, its workload cannot be resolved), in which case its teardown is due.
   *
   * @param kept whether the cell steps' work of the open cell stays (no step runs): only the checks
   *     are due, and the open cell's own knobs that {@code next} does not have are set back
   * @throws AgentException when a host stopped answering
   */
  Optional<String> open(Cell next, boolean kept) {
    if (kept && cell != null) {
      return check(next);
    }
    cell = next;
    cellCaptures = new LinkedHashMap<>();
    own = Map.of();
    record();
    Map<String, String> stepVars = stepVars();
    for (Step step : matrix.cellSetup()) {
      try {
        Steps.run(hosts, step, stepVars);
      } catch (AgentException e) {
        throw e;
      } catch (TunelabException | IllegalArgumentException e) {
        return Optional.of("cell_setup: " + e.getMessage());
      }
      if (step.capture() != null) {
        cellCaptures.put(step.capture(), stepVars.get(step.capture()));
        record();
      }
    }
    return check(next);
  }

  /** The checks of a cell set up (by its own steps or by those of the cell before). */
  private Optional<String> check(Cell next) {
    Map<String, String> vars = vars();
    try {
      WorkloadPlanner.plan(matrix.workload(), next.trialVars(vars, 1));
      Map<RoleKnob, String> mine = knobs.own(next, vars, 1);
      Set<RoleKnob> dropped = new LinkedHashSet<>(own.keySet());
      dropped.removeAll(mine.keySet());
      if (!dropped.isEmpty()) {
        resetOwn(dropped);
        own = new LinkedHashMap<>(own);
        own.keySet().removeAll(dropped);
      }
      if (!mine.isEmpty()) {
        // A knob known already keeps its first original (HostKnobState.learn).
        Preflight.Findings found =
            Preflight.inspectCell(hosts, next, knobs.requested(next, vars, 1), mine.keySet());
        if (!found.problems().isEmpty()) {
          return Optional.of(
              "the cell's knobs were refused: " + String.join("; ", found.problems()));
        }
        found.originals().forEach((host, originals) -> states.get(host).learn(originals));
        mine.keySet().forEach(k -> setBack.remove(k.host() + " " + k.knob().path()));
        own = mine;
      }
    } catch (AgentException e) {
      throw e;
    } catch (TunelabException | IllegalArgumentException e) {
      return Optional.of(e.getMessage());
    }
    return Optional.empty();
  }

  /** Whether the matrix has {@code cell_setup} or {@code cell_teardown} steps. */
  boolean hasSteps() {
    return recorded;
  }

  /** What trials of the open cell resolve with: setup's captures, then the cell's. */
  Map<String, String> vars() {
    Map<String, String> vars = new LinkedHashMap<>(captures);
    vars.putAll(cellCaptures);
    return vars;
  }

  /**
   * Tears the open cell down: its own knobs back to their originals, then {@code cell_teardown}
   * (every step, each on its own). Problems are printed as warnings; it never throws, so that it
   * can run after a failure.
   */
  void close() {
    if (cell == null) {
      return;
    }
    if (!own.isEmpty()) {
      resetOwn(own.keySet());
    }
    List<String> problems = Steps.teardown(hosts, matrix.cellTeardown(), stepVars());
    problems.forEach(p -> out.accept("warning: cell_teardown of cell " + cell.label() + ": " + p));
    if (recorded) {
      store.recordOpenCell(experimentId, null);
    }
    cell = null;
    own = Map.of();
  }

  /**
   * Sets the open cell up again for a trial of {@code next} after {@code rebooted} hosts came back
   * from a reboot, which took what the cell steps made there: the cell is torn down (the rebooted
   * hosts' own knobs are not written back, the reboot reset them) and set up with fresh captures.
   * Returns why it could not be set up; nothing to do when no cell is open.
   *
   * @throws AgentException when a host stopped answering
   */
  Optional<String> reopen(Cell next, Set<String> rebooted) {
    if (cell == null) {
      return Optional.empty();
    }
    Map<RoleKnob, String> standing = new LinkedHashMap<>(own);
    standing.keySet().removeIf(k -> rebooted.contains(k.host()));
    own = standing;
    close();
    return open(next, false);
  }

  /** Whether a cell's teardown set {@code path} of {@code host} back to its original. */
  boolean setBack(String host, String path) {
    return setBack.contains(host + " " + path);
  }

  /** Sets a cell's own knobs back to their originals; then trusts nothing about their devices. */
  private void resetOwn(Set<RoleKnob> keys) {
    try {
      String why = executor.reset(keys);
      if (why.isEmpty()) {
        keys.forEach(k -> setBack.add(k.host() + " " + k.knob().path()));
      } else {
        out.accept("warning: cell " + cell.label() + ": knobs not set back: " + why);
      }
    } catch (RuntimeException e) {
      out.accept("warning: cell " + cell.label() + ": knobs not set back: " + e.getMessage());
    }
    keys.forEach(k -> states.get(k.host()).forget(List.of(k.knob())));
  }

  /** Parameters, case parameters and every capture so far: what cell steps substitute. */
  private Map<String, String> stepVars() {
    Map<String, String> vars = vars();
    vars.putAll(cell.vars());
    return vars;
  }

  private void record() {
    if (recorded) {
      store.recordOpenCell(experimentId, new OpenCell(cell.ordinal(), Map.copyOf(cellCaptures)));
    }
  }

  /**
   * After a controller died with a cell open: that cell's {@code cell_teardown}, with the variables
   * of {@code setupVars} and what the cell's steps had captured. Returns one message per failed
   * step; without problems the store forgets the cell. Captures read back from the store that no
   * capture could have produced fail with exit code 3 before any step runs ({@link Captures}).
   */
  static List<String> tearDownLeftover(
      RunStore store,
      long experimentId,
      Hosts hosts,
      Matrix matrix,
      Map<String, String> setupVars) {
    Captures.recheck(store.location(), matrix.setup(), setupVars);
    Optional<OpenCell> open = store.openCell(experimentId);
    if (open.isEmpty()) {
      return List.of();
    }
    Captures.recheck(store.location(), matrix.cellSetup(), open.get().captures());
    int ordinal = open.get().cellOrdinal();
    Optional<Cell> cell =
        ExperimentPlan.cells(matrix).filter(c -> c.ordinal() == ordinal).findFirst();
    if (cell.isEmpty()) {
      return List.of("cell " + ordinal + " was set up but the matrix has no such cell");
    }
    Map<String, String> vars = new LinkedHashMap<>(setupVars);
    vars.putAll(open.get().captures());
    vars.putAll(cell.get().vars());
    List<String> problems = new ArrayList<>();
    for (String p : Steps.teardown(hosts, matrix.cellTeardown(), vars)) {
      problems.add("cell_teardown of cell " + cell.get().label() + ": " + p);
    }
    if (problems.isEmpty()) {
      store.recordOpenCell(experimentId, null);
    }
    return problems;
  }
}
