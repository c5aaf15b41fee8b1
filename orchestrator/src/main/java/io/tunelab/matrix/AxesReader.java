package io.tunelab.matrix;

import io.tunelab.yaml.Position;
import io.tunelab.yaml.YamlNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** Reads {@code matrix:}: parameter axes, knob axes and cases axes, in the order written. */
final class AxesReader {
  /** No '/': it separates the axes of a cell's label; no ',': it separates compare's values. */
  static final Pattern CASE_NAME = Pattern.compile("[A-Za-z0-9._:=+-]+");

  private final NodeReader in;
  private final Roles roles;
  private final KnobKeys knobs;
  private final Variables variables;

  AxesReader(NodeReader in, Roles roles, KnobKeys knobs, Variables variables) {
    this.in = in;
    this.roles = roles;
    this.knobs = knobs;
    this.variables = variables;
  }

  List<AxisDraft> read(YamlNode node) {
    YamlNode.Mapping matrix = in.mapping(node, "matrix");
    if (matrix == null) {
      return List.of();
    }
    List<AxisDraft> axes = new ArrayList<>();
    for (YamlNode.Entry e : matrix.entries()) {
      AxisDraft axis = axis(e);
      if (axis != null) {
        axes.add(axis);
      }
    }
    assignLabels(axes);
    return axes;
  }

  private AxisDraft axis(YamlNode.Entry e) {
    String key = e.key();
    String path = "matrix." + key;
    Roles.KeyKind kind = roles.classify(key);
    if (kind == Roles.KeyKind.UNKNOWN_ROLE || kind == Roles.KeyKind.BAD_NAME) {
      knobs.reportNotKnobOrParameter(key, e.keyPosition(), path);
      return null;
    }
    if (e.value() instanceof YamlNode.Mapping cases) {
      if (kind == Roles.KeyKind.KNOB) {
        in.problem(e.keyPosition(), path, "a knob axis takes a list of values, not a map of cases");
        return null;
      }
      return casesAxis(key, e.keyPosition(), path, cases);
    }
    if (e.value() instanceof YamlNode.Scalar s && s.isNull()) {
      in.problem(e.value().position(), path, "empty axis: give at least one value");
      return null;
    }
    if (!(e.value() instanceof YamlNode.Sequence list)) {
      String example = ((YamlNode.Scalar) e.value()).text();
      in.problem(
          e.value().position(),
          path,
          "an axis takes a list of values, e.g. ["
              + example
              + "], or a map of named cases"
              + (kind == Roles.KeyKind.KNOB
                  ? "; a knob that is the same in every cell belongs in settings"
                  : ""));
      return null;
    }
    if (list.items().isEmpty()) {
      in.problem(e.value().position(), path, "empty axis: give at least one value");
      return null;
    }
    AxisDraft axis;
    if (kind == Roles.KeyKind.KNOB) {
      axis = new AxisDraft(key, e.keyPosition(), Axis.Kind.KNOB);
      knobs.checkKey(key, e.keyPosition(), path);
    } else {
      axis = new AxisDraft(key, e.keyPosition(), Axis.Kind.PARAMETER);
    }
    readValues(axis, list, path);
    if (kind == Roles.KeyKind.PARAMETER) {
      Variable v = variables.defineParameter(key, e.keyPosition(), path);
      if (v != null) {
        v.values.addAll(axis.values);
      }
    }
    return axis;
  }

  private void readValues(AxisDraft axis, YamlNode.Sequence list, String path) {
    Map<String, Position> seen = new HashMap<>();
    for (YamlNode item : list.items()) {
      String value = in.text(item, path);
      if (value == null) {
        continue;
      }
      Position earlier = seen.putIfAbsent(value, item.position());
      if (earlier != null) {
        in.problem(
            item.position(),
            path,
            "value '" + value + "' appears twice (first at line " + earlier.line() + ")");
        continue;
      }
      if (axis.kind == Axis.Kind.KNOB) {
        knobs.checkValue(axis.name, value, item.position(), path);
      } else {
        checkParameterValue(value, item.position(), path);
      }
      axis.values.add(new ValueAt(value, item.position(), path));
    }
  }

  private AxisDraft casesAxis(String name, Position at, String path, YamlNode.Mapping casesNode) {
    if (casesNode.entries().isEmpty()) {
      in.problem(casesNode.position(), path, "empty axis: give at least one case");
      return null;
    }
    AxisDraft axis = new AxisDraft(name, at, Axis.Kind.CASES);
    Map<String, Position> casePositions = new LinkedHashMap<>();
    for (YamlNode.Entry c : casesNode.entries()) {
      String casePath = path + "." + c.key();
      if (!CASE_NAME.matcher(c.key()).matches()) {
        in.problem(
            c.keyPosition(),
            casePath,
            "a case name is letters, digits, '.', '_', '-', ':', '=' and '+' (it appears in"
                + " labels, where '/' separates the axes)");
        continue;
      }
      Map<String, String> entries = caseEntries(axis, c.key(), c.value(), casePath);
      if (entries != null) {
        axis.values.add(new ValueAt(c.key(), c.keyPosition(), casePath));
        axis.cases.put(c.key(), entries);
        casePositions.put(c.key(), c.keyPosition());
      }
    }
    variables.defineCases(name, casePositions);
    return axis;
  }

  private Map<String, String> caseEntries(
      AxisDraft axis, String caseName, YamlNode node, String casePath) {
    Map<String, String> entries = new LinkedHashMap<>();
    if (node instanceof YamlNode.Scalar s && s.isNull()) {
      return entries; // "name:" with nothing is the same as "name: {}"
    }
    if (!(node instanceof YamlNode.Mapping map)) {
      in.problem(
          node.position(),
          casePath,
          "a case is a map of knobs and parameters (write {} for a case that changes nothing),"
              + " got "
              + node.kind());
      return null;
    }
    for (YamlNode.Entry e : map.entries()) {
      String key = casePath + "." + e.key();
      Roles.KeyKind kind = roles.classify(e.key());
      if (kind == Roles.KeyKind.UNKNOWN_ROLE || kind == Roles.KeyKind.BAD_NAME) {
        knobs.reportNotKnobOrParameter(e.key(), e.keyPosition(), key);
        continue;
      }
      String value = in.text(e.value(), key);
      if (value == null) {
        continue;
      }
      if (kind == Roles.KeyKind.KNOB) {
        knobs.checkKey(e.key(), e.keyPosition(), key);
        knobs.checkValue(e.key(), value, e.value().position(), key);
        axis.caseKnobs.add(
            new KnobSetting(
                e.key(),
                e.keyPosition(),
                key,
                "case '" + caseName + "' of axis '" + axis.name + "'",
                "axis " + axis.name,
                caseName));
      } else {
        checkParameterValue(value, e.value().position(), key);
        variables.defineCaseParameter(
            e.key(), axis.name, caseName, new ValueAt(value, e.value().position(), key));
      }
      entries.put(e.key(), value);
    }
    return entries;
  }

  /** Checks a parameter value: it will be substituted into shell commands. */
  private void checkParameterValue(String value, Position at, String key) {
    String why = ValueRules.parameterProblem(value);
    if (why != null) {
      in.problem(at, key, why);
    }
  }

  /** Short labels where they are unique, the full knob name where two axes would share one. */
  private static void assignLabels(List<AxisDraft> axes) {
    Map<String, Integer> uses = new HashMap<>();
    for (AxisDraft a : axes) {
      uses.merge(a.shortLabel(), 1, Integer::sum);
    }
    for (AxisDraft a : axes) {
      String label = a.shortLabel();
      a.label = a.kind == Axis.Kind.KNOB && uses.get(label) > 1 ? a.name : label;
    }
  }
}
