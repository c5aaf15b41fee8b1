package io.tunelab.matrix;

import io.tunelab.yaml.Position;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The variables a matrix defines ({@code params:} entries, parameters, case parameters, captures),
 * each name once, and the cases of each cases axis.
 */
final class Variables {
  static final String REP = "rep";
  static final String PROC = "proc";

  private final NodeReader in;
  private final Map<String, Variable> byName = new LinkedHashMap<>();
  private final Map<String, Map<String, Position>> casesByAxis = new LinkedHashMap<>();

  Variables(NodeReader in) {
    this.in = in;
  }

  /** Declares a {@code params:} entry; null (with a problem) on a clash. */
  Variable defineSite(String name, Position at, String key) {
    return define(new Variable(name, Variable.Kind.SITE, at, null), key);
  }

  /** Declares a plain parameter axis; null (with a problem) on a clash. */
  Variable defineParameter(String name, Position at, String key) {
    return define(new Variable(name, Variable.Kind.PARAMETER, at, null), key);
  }

  /** Declares the cases of a cases axis, for the check that each sets what is used. */
  void defineCases(String axis, Map<String, Position> cases) {
    casesByAxis.put(axis, cases);
  }

  /** The cases of {@code axis}, each where it was written. */
  Map<String, Position> cases(String axis) {
    return casesByAxis.getOrDefault(axis, Map.of());
  }

  /** Records that {@code caseName} of {@code axis} sets parameter {@code name}. */
  void defineCaseParameter(String name, String axis, String caseName, ValueAt value) {
    Variable existing = byName.get(name);
    if (existing != null
        && existing.kind == Variable.Kind.CASE_PARAMETER
        && existing.axis.equals(axis)) {
      existing.byCase.put(caseName, value);
      return;
    }
    Variable v =
        define(
            new Variable(name, Variable.Kind.CASE_PARAMETER, value.position(), axis), value.key());
    if (v != null) {
      v.byCase.put(caseName, value);
    }
  }

  /** Declares a captured variable, a list or not; returns false (with a problem) on a clash. */
  boolean defineCapture(String name, Variable.Kind kind, boolean list, Position at, String key) {
    return define(new Variable(name, kind, at, null, list), key) != null;
  }

  /**
   * The parameter a template consisting of exactly one {@code ${name}} names, or null. A {@code
   * params:} entry is left in a template only when its value was refused: it counts as a parameter
   * without values, so that nothing else is reported about it.
   */
  Variable soleParameter(String template) {
    if (!template.startsWith("${") || !template.endsWith("}")) {
      return null;
    }
    Variable v = byName.get(template.substring(2, template.length() - 1));
    return v != null && (v.isParameter() || v.kind == Variable.Kind.SITE) ? v : null;
  }

  /** The variable called {@code name}, or null. */
  Variable get(String name) {
    return byName.get(name);
  }

  /** Every variable, in the order defined. */
  Collection<Variable> all() {
    return byName.values();
  }

  private Variable define(Variable v, String key) {
    if (v.name.equals(REP) || v.name.equals(PROC)) {
      in.problem(
          v.position,
          key,
          "'"
              + v.name
              + "' is reserved: ${rep} is the repetition number and ${proc} the"
              + " process number of a workload");
      return null;
    }
    Variable old = byName.putIfAbsent(v.name, v);
    if (old != null) {
      in.problem(
          v.position,
          key,
          "'"
              + v.name
              + "' is already "
              + old.describe()
              + " (line "
              + old.position.line()
              + "); variable names must be unique");
      return null;
    }
    return v;
  }
}
