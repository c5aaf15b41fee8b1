package io.tunelab.run;

import io.tunelab.knob.Knob;
import io.tunelab.knob.KnobCatalogue;
import io.tunelab.matrix.Kernels;
import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.Step;
import io.tunelab.matrix.Substitution;
import io.tunelab.plan.Cell;
import io.tunelab.yaml.Position;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Every knob an experiment touches, resolved against the variables captured by setup. An entry
 * whose name holds {@code ${NAME[*]}} is one knob per element of the list.
 *
 * <p>A knob that a cell does not name is requested as {@code default} in that cell, so that a value
 * set by one case never leaks into the next cell. A knob whose name or value uses a {@code
 * cell_setup} capture is the cell's own: it is known only once the cell is set up, is checked then,
 * and is set back to its original before the cell's teardown (the device it names may go away with
 * the cell). A role's kernel ({@code ROLE.kernel}) is no knob: the run boots the host for it.
 */
final class ExperimentKnobs {
  static final String DEFAULT = "default";

  private final Map<String, String> roles;
  private final Set<String> cellCaptures;
  private final Map<String, RoleKnob> all = new LinkedHashMap<>();
  private final Position where;

  ExperimentKnobs(Matrix matrix, List<Cell> cells, Map<String, String> captures) {
    this.roles = matrix.roles();
    this.cellCaptures =
        matrix.cellSetup().stream()
            .map(Step::capture)
            .filter(c -> c != null)
            .collect(Collectors.toUnmodifiableSet());
    this.where = new Position(matrix.source(), 0, 0);
    // A template without references names the same knobs in every cell: resolved once.
    Set<String> plain = new HashSet<>();
    for (Cell cell : cells) {
      Map<String, String> vars = null;
      for (Map.Entry<String, String> entry : cell.knobs().entrySet()) {
        String template = entry.getKey();
        boolean references = template.contains("${");
        if (!references && plain.contains(template)
            || Kernels.isKey(template)
            || cellScoped(template, entry.getValue())) {
          continue;
        }
        if (references && vars == null) {
          vars = cell.trialVars(captures, 0);
        }
        for (RoleKnob knob : resolve(template, references ? vars : Map.of())) {
          all.putIfAbsent(knob.qualified(), knob);
        }
        if (!references) {
          plain.add(template);
        }
      }
    }
  }

  /** Every knob of the experiment but the cells' own, by qualified resolved name. */
  Map<String, RoleKnob> all() {
    return all;
  }

  /**
   * The value each knob must have in one trial of {@code cell}: every knob of the experiment, the
   * cell's values over {@code default}. {@code vars} holds what setup and the cell's steps
   * captured.
   */
  Map<RoleKnob, String> requested(Cell cell, Map<String, String> vars, int rep) {
    return requested(cell, vars, rep, true);
  }

  /** As {@link #requested} without the cell's own knobs: what can be checked before any cell. */
  Map<RoleKnob, String> beforeCells(Cell cell, Map<String, String> captures, int rep) {
    return requested(cell, captures, rep, false);
  }

  /** The cell's own knobs (named through its captures) with their values. */
  Map<RoleKnob, String> own(Cell cell, Map<String, String> vars, int rep) {
    Map<String, String> trial = cell.trialVars(vars, rep);
    Map<RoleKnob, String> own = new LinkedHashMap<>();
    cell.knobs()
        .forEach(
            (template, value) -> {
              if (!Kernels.isKey(template) && cellScoped(template, value)) {
                String v = Substitution.apply(value, trial, where);
                resolve(template, trial).forEach(k -> own.put(k, v));
              }
            });
    return own;
  }

  private Map<RoleKnob, String> requested(
      Cell cell, Map<String, String> vars, int rep, boolean withOwn) {
    Map<RoleKnob, String> requested = new LinkedHashMap<>();
    all.values().forEach(k -> requested.put(k, DEFAULT));
    Map<String, String> trial = cell.trialVars(vars, rep);
    cell.knobs()
        .forEach(
            (template, value) -> {
              if (!Kernels.isKey(template) && (withOwn || !cellScoped(template, value))) {
                String v = Substitution.apply(value, trial, where);
                resolve(template, trial).forEach(k -> requested.put(k, v));
              }
            });
    return requested;
  }

  /** Whether a knob entry uses a {@code cell_setup} capture, in its name or its value. */
  private boolean cellScoped(String template, String value) {
    if (cellCaptures.isEmpty() || !template.contains("${") && !value.contains("${")) {
      return false;
    }
    return Substitution.names(template).stream().anyMatch(cellCaptures::contains)
        || Substitution.names(value).stream().anyMatch(cellCaptures::contains);
  }

  private List<RoleKnob> resolve(String template, Map<String, String> vars) {
    List<RoleKnob> knobs = new ArrayList<>();
    for (String name : Substitution.expand(template, vars, where)) {
      int dot = name.indexOf('.');
      String role = name.substring(0, dot);
      Knob knob = KnobCatalogue.parse(name.substring(dot + 1));
      knobs.add(new RoleKnob(role, roles.get(role), knob));
    }
    return knobs;
  }
}
