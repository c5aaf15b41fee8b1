package io.tunelab.run;

import io.tunelab.knob.Knob;
import io.tunelab.knob.KnobCatalogue;
import io.tunelab.matrix.Substitution;
import io.tunelab.plan.Cell;
import io.tunelab.yaml.Position;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every knob an experiment touches, resolved against the variables captured by setup.
 *
 * <p>A knob that a cell does not name is requested as {@code default} in that cell, so that a value
 * set by one case never leaks into the next cell.
 */
final class ExperimentKnobs {
  static final String DEFAULT = "default";

  private final Map<String, String> roles;
  private final Map<String, RoleKnob> all = new LinkedHashMap<>();
  private final Position where;

  ExperimentKnobs(
      Map<String, String> roles, List<Cell> cells, Map<String, String> captures, String source) {
    this.roles = roles;
    this.where = new Position(source, 0, 0);
    for (Cell cell : cells) {
      for (String template : cell.knobs().keySet()) {
        RoleKnob knob = resolve(template, cell.trialVars(captures, 0));
        all.putIfAbsent(knob.qualified(), knob);
      }
    }
  }

  /** Every knob of the experiment, by qualified resolved name, in first-seen order. */
  Map<String, RoleKnob> all() {
    return all;
  }

  /** The value each knob of the experiment must have in {@code cell}. */
  Map<RoleKnob, String> requested(Cell cell, Map<String, String> captures, int rep) {
    Map<RoleKnob, String> requested = new LinkedHashMap<>();
    all.values().forEach(k -> requested.put(k, DEFAULT));
    Map<String, String> vars = cell.trialVars(captures, rep);
    cell.knobs().forEach((template, value) -> requested.put(resolve(template, vars), value));
    return requested;
  }

  private RoleKnob resolve(String template, Map<String, String> vars) {
    String name = Substitution.apply(template, vars, where);
    int dot = name.indexOf('.');
    String role = name.substring(0, dot);
    Knob knob = KnobCatalogue.parse(name.substring(dot + 1));
    return new RoleKnob(role, roles.get(role), knob);
  }
}
