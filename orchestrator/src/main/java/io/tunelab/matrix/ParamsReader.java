package io.tunelab.matrix;

import io.tunelab.yaml.YamlNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Reads {@code params:}, the values that differ from site to site (a portal, a disk, a size): one
 * value per name, each replaced by a {@code --set} of that name.
 */
final class ParamsReader {
  private final NodeReader in;
  private final Variables variables;
  private final Overrides set;

  /** The {@code params:} map as written, once read. */
  private YamlNode.Mapping written;

  ParamsReader(NodeReader in, Variables variables, Overrides set) {
    this.in = in;
    this.variables = variables;
    this.set = set;
  }

  /** Name to value, in the order written, with the overrides applied. */
  Map<String, String> read(YamlNode node) {
    Map<String, String> values = new LinkedHashMap<>();
    YamlNode.Mapping map = node == null ? null : in.mapping(node, "params");
    if (map == null) {
      return values;
    }
    written = map;
    for (YamlNode.Entry e : map.entries()) {
      String name = e.key();
      String key = "params." + name;
      if (!Substitution.isName(name)) {
        in.problem(
            e.keyPosition(),
            key,
            "a parameter name is letters, digits and _, not starting with a digit");
        continue;
      }
      if (Overrides.KEYS.contains(name)) {
        in.problem(
            e.keyPosition(),
            key,
            "'"
                + name
                + "' is a matrix key, which --set "
                + name
                + "=VALUE sets: give the parameter another name");
        continue;
      }
      if (variables.defineSite(name, e.keyPosition(), key) == null) {
        continue;
      }
      String value = fileValue(e, key);
      String given = set.take(name);
      if (given != null) {
        value = check(given, e, Overrides.key(name)) ? given : null;
      } else if (value == null && e.value() instanceof YamlNode.Scalar s && s.isNull()) {
        in.problem(
            e.value().position(),
            key,
            "no value: write one here or give it with --set " + name + "=VALUE");
      }
      if (value != null) {
        values.put(name, value);
      }
    }
    return values;
  }

  /** The names {@code params:} declares, whether or not their value could be used. */
  List<String> declared() {
    List<String> names = new ArrayList<>();
    for (Variable v : variables.all()) {
      if (v.kind == Variable.Kind.SITE) {
        names.add(v.name);
      }
    }
    return names;
  }

  /**
   * Refuses a name that is also a cases axis or a knob axis's label (a parameter axis or case
   * parameter of that name is refused where it is defined): a {@code --set} of it would be
   * ambiguous.
   */
  void checkAgainst(List<AxisDraft> axes) {
    if (written == null) {
      return;
    }
    for (AxisDraft a : axes) {
      if (a.kind == Axis.Kind.PARAMETER) {
        continue;
      }
      for (String n : new LinkedHashSet<>(Arrays.asList(a.name, a.label))) {
        YamlNode.Entry e = written.byKey().get(n);
        if (e != null && variables.get(n) != null && variables.get(n).kind == Variable.Kind.SITE) {
          in.problem(
              e.keyPosition(),
              "params." + n,
              "'"
                  + n
                  + "' is also "
                  + (a.kind == Axis.Kind.CASES
                      ? "a cases axis"
                      : "the label of knob axis '" + a.name + "'")
                  + " (line "
                  + a.position.line()
                  + "): give the parameter another name");
        }
      }
    }
  }

  /** The value written in the file, or null (with a problem unless it is left empty). */
  private String fileValue(YamlNode.Entry e, String key) {
    if (e.value() instanceof YamlNode.Scalar s && s.isNull()) {
      return null;
    }
    if (!(e.value() instanceof YamlNode.Scalar)) {
      in.problem(
          e.value().position(),
          key,
          "a params: entry has one value; a list of values is an axis: put it under matrix");
      return null;
    }
    String value = in.text(e.value(), key);
    return check(value, e, key) ? value : null;
  }

  /** Checks a value: it will be substituted into shell commands. */
  private boolean check(String value, YamlNode.Entry e, String key) {
    String why = ValueRules.parameterProblem(value);
    if (why != null) {
      in.problem(e.value().position(), key, why);
    }
    return why == null;
  }
}
