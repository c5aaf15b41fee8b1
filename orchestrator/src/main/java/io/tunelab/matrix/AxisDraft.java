package io.tunelab.matrix;

import io.tunelab.yaml.Position;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** An axis as read, with the positions that later checks (exclude, conflicts) report. */
final class AxisDraft {
  final String name;
  final Position position;
  final Axis.Kind kind;

  /** The values, or for a cases axis the case names, each where it was written. */
  final List<ValueAt> values = new ArrayList<>();

  /** For a cases axis: case name to its entries (knobs and parameters) as written. */
  final Map<String, Map<String, String>> cases = new LinkedHashMap<>();

  /** For a cases axis: the knobs its cases set. */
  final List<KnobSetting> caseKnobs = new ArrayList<>();

  String label;

  AxisDraft(String name, Position position, Axis.Kind kind) {
    this.name = name;
    this.position = position;
    this.kind = kind;
  }

  /** The knobs a cell gets from this axis: the axis's own knob, or its cases' knobs. */
  List<KnobSetting> knobSettings() {
    if (kind == Axis.Kind.KNOB) {
      return List.of(
          new KnobSetting(
              name, position, "matrix." + name, "axis '" + name + "'", "axis " + name, ""));
    }
    return caseKnobs;
  }

  List<String> valueTexts() {
    List<String> texts = new ArrayList<>(values.size());
    for (ValueAt v : values) {
      texts.add(v.value());
    }
    return texts;
  }

  /** What the value means in messages: "value" or "case". */
  String valueWord() {
    return kind == Axis.Kind.CASES ? "case" : "value";
  }

  /** The label of a knob axis before clashes are resolved: the knob's last name component. */
  String shortLabel() {
    if (kind != Axis.Kind.KNOB) {
      return name;
    }
    String knob = name.substring(name.indexOf('.') + 1);
    boolean isPath = knob.startsWith("sysfs:") || knob.startsWith("proc:");
    String last = knob.substring(knob.lastIndexOf(isPath ? '/' : '.') + 1);
    return last.isEmpty() ? name : last;
  }
}
