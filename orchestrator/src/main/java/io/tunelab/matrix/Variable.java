package io.tunelab.matrix;

import io.tunelab.yaml.Position;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A variable a matrix defines and where its values come from. */
final class Variable {
  enum Kind {
    /** A {@code params:} entry: one value for the whole experiment, substituted as it is read. */
    SITE,
    PARAMETER,
    CASE_PARAMETER,
    SETUP_CAPTURE,
    TEARDOWN_CAPTURE,
    CELL_CAPTURE,
    CELL_TEARDOWN_CAPTURE
  }

  final String name;
  final Kind kind;
  final Position position;

  /** A list capture ({@code capture: NAME[]}): one value per line of the step's output. */
  final boolean list;

  /** For a case parameter: its cases axis. */
  final String axis;

  /** For a parameter: the axis values, then the values of include entries. */
  final List<ValueAt> values = new ArrayList<>();

  /** For a case parameter: case name to its value, for the cases that set it. */
  final Map<String, ValueAt> byCase = new LinkedHashMap<>();

  Variable(String name, Kind kind, Position position, String axis) {
    this(name, kind, position, axis, false);
  }

  Variable(String name, Kind kind, Position position, String axis, boolean list) {
    this.name = name;
    this.kind = kind;
    this.position = position;
    this.axis = axis;
    this.list = list;
  }

  /** A parameter axis or a case parameter: a variable whose value changes from cell to cell. */
  boolean isParameter() {
    return kind == Kind.PARAMETER || kind == Kind.CASE_PARAMETER;
  }

  /** A value captured from a host's output, known only when the experiment runs. */
  boolean isCapture() {
    return !isParameter();
  }

  /** Every value a parameter can take: its axis and include values, or its cases' values. */
  List<ValueAt> allValues() {
    return kind == Kind.PARAMETER ? values : new ArrayList<>(byCase.values());
  }

  String describe() {
    switch (kind) {
      case SITE:
        return "a params: entry";
      case PARAMETER:
        return "a parameter axis";
      case CASE_PARAMETER:
        return "a parameter of cases axis '" + axis + "'";
      case SETUP_CAPTURE:
        return "a setup capture";
      case TEARDOWN_CAPTURE:
        return "a teardown capture";
      case CELL_CAPTURE:
        return "a cell_setup capture";
      default:
        return "a cell_teardown capture";
    }
  }
}
