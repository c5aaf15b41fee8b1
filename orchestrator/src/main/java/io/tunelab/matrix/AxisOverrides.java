package io.tunelab.matrix;

import io.tunelab.yaml.DidYouMean;
import io.tunelab.yaml.Position;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Narrows each axis a {@code --set} names to that one value, and drops the exclude and include
 * entries that no longer apply. An axis is named as written in the file, as it reads once the
 * params are put in, or by its label ({@code read_ahead_kb}). A parameter or knob axis takes any
 * value the file could have listed (checked the same way): a run may need a size the file does not
 * list. A cases axis takes one of its cases only, since a case is defined in the file.
 */
final class AxisOverrides {
  private final NodeReader in;
  private final KnobKeys knobs;
  private final Variables variables;
  private final Overrides set;

  /** The axes that were narrowed, each to its value. */
  private final List<AxisDraft> narrowed = new ArrayList<>();

  AxisOverrides(NodeReader in, KnobKeys knobs, Variables variables, Overrides set) {
    this.in = in;
    this.knobs = knobs;
    this.variables = variables;
    this.set = set;
  }

  /**
   * Narrows every axis a {@code --set} names.
   *
   * @param written the key of each axis as the file writes it, by its position
   */
  void narrow(List<AxisDraft> axes, Map<Position, String> written) {
    for (AxisDraft axis : axes) {
      String name = null;
      String value = null;
      for (String candidate : names(axis, written)) {
        if (Overrides.KEYS.contains(candidate)) {
          continue; // --set repeat=N gives the matrix's repeat, never an axis of that name
        }
        value = set.take(candidate);
        if (value != null) {
          name = candidate;
          break;
        }
      }
      if (value != null && narrow(axis, Overrides.key(name), value)) {
        narrowed.add(axis);
      }
    }
  }

  /** The names a {@code --set} may give an axis by. */
  private static List<String> names(AxisDraft axis, Map<Position, String> written) {
    List<String> names = new ArrayList<>();
    String asWritten = written.get(axis.position);
    if (asWritten != null) {
      names.add(asWritten);
    }
    for (String n : List.of(axis.name, axis.label)) {
      if (n != null && !names.contains(n)) {
        names.add(n);
      }
    }
    return names;
  }

  private boolean narrow(AxisDraft axis, String key, String value) {
    List<String> known = axis.valueTexts();
    if (axis.kind == Axis.Kind.CASES) {
      if (!known.contains(value)) {
        in.problem(
            axis.position,
            key,
            "'"
                + value
                + "' is not a case of axis '"
                + axis.name
                + "' (cases: "
                + String.join(", ", known)
                + ")"
                + DidYouMean.hint(value, known));
        return false;
      }
      // The case parameters keep every case's value: each case is still checked as the file's.
      axis.cases.keySet().retainAll(Set.of(value));
    } else if (!known.contains(value) && !check(axis, key, value)) {
      return false;
    }
    ValueAt chosen = new ValueAt(value, axis.position, key);
    axis.values.clear();
    axis.values.add(chosen);
    Variable v = variables.get(axis.name);
    if (axis.kind == Axis.Kind.PARAMETER && v != null && v.kind == Variable.Kind.PARAMETER) {
      v.values.clear();
      v.values.add(chosen);
    }
    return true;
  }

  /** Checks a value the axis does not list as the file's values are checked. */
  private boolean check(AxisDraft axis, String key, String value) {
    int problems = in.problems().size();
    if (value.contains("${")) {
      in.problem(axis.position, key, "a --set value is used as given: it may not hold '${'");
    } else if (axis.kind == Axis.Kind.KNOB) {
      knobs.checkValue(axis.name, value, axis.position, key);
    } else {
      String why = ValueRules.parameterProblem(value);
      if (why != null) {
        in.problem(axis.position, key, why);
      }
    }
    return in.problems().size() == problems;
  }

  /**
   * The exclude entries that can still match a cell: none names another value of a narrowed axis.
   */
  List<Map<String, String>> excludes(List<Map<String, String>> excludes) {
    List<Map<String, String>> kept = new ArrayList<>();
    for (Map<String, String> e : excludes) {
      if (agrees(e)) {
        kept.add(e);
      }
    }
    return kept;
  }

  /**
   * The include entries still wanted: each gives the narrowed axes their value, and is not a cell
   * the narrowed axes now make anyway.
   */
  List<Map<String, String>> includes(
      List<Map<String, String>> includes,
      List<AxisDraft> axes,
      List<Map<String, String>> excludes) {
    List<Map<String, String>> kept = new ArrayList<>();
    for (Map<String, String> e : includes) {
      if (agrees(e) && !isMadeAnyway(e, axes, excludes)) {
        kept.add(e);
      }
    }
    return kept;
  }

  private boolean agrees(Map<String, String> entry) {
    for (AxisDraft a : narrowed) {
      String value = entry.get(a.name);
      if (value != null && !value.equals(a.values.get(0).value())) {
        return false;
      }
    }
    return true;
  }

  private boolean isMadeAnyway(
      Map<String, String> include, List<AxisDraft> axes, List<Map<String, String>> excludes) {
    if (narrowed.isEmpty()) {
      return false;
    }
    for (AxisDraft a : axes) {
      if (!a.valueTexts().contains(include.get(a.name))) {
        return false;
      }
    }
    return excludes.stream().noneMatch(x -> include.entrySet().containsAll(x.entrySet()));
  }
}
