package io.tunelab.matrix;

import io.tunelab.yaml.DidYouMean;
import io.tunelab.yaml.Position;
import io.tunelab.yaml.YamlNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads {@code exclude} (partial assignments; a cell matching every entry of one is dropped) and
 * {@code include} (full assignments appended as extra cells).
 */
final class FilterReader {
  private final NodeReader in;
  private final KnobKeys knobs;
  private final Variables variables;
  private final Map<String, AxisDraft> axes = new LinkedHashMap<>();

  FilterReader(NodeReader in, KnobKeys knobs, Variables variables, List<AxisDraft> axes) {
    this.in = in;
    this.knobs = knobs;
    this.variables = variables;
    for (AxisDraft a : axes) {
      this.axes.put(a.name, a);
    }
  }

  /** An entry as read; {@code complete} when every key and value in it was valid. */
  private record Entry(
      Map<String, String> values, Position position, String key, boolean complete) {}

  List<Map<String, String>> excludes(YamlNode node) {
    List<Entry> entries = entries(node, "exclude", false);
    for (int j = 0; j < entries.size(); j++) {
      for (int i = 0; i < j; i++) {
        reportOverlap(entries.get(i), entries.get(j));
      }
    }
    return valuesOf(entries);
  }

  List<Map<String, String>> includes(YamlNode node, List<Map<String, String>> excludes) {
    List<Entry> entries = entries(node, "include", true);
    for (int j = 0; j < entries.size(); j++) {
      Entry e = entries.get(j);
      if (!e.complete()) {
        continue;
      }
      for (int i = 0; i < j; i++) {
        if (entries.get(i).values().equals(e.values())) {
          in.problem(
              e.position(),
              e.key(),
              "the same cell as "
                  + entries.get(i).key()
                  + " (line "
                  + entries.get(i).position().line()
                  + ")");
        }
      }
      if (isCrossProductCell(e.values()) && excludes.stream().noneMatch(x -> matches(x, e))) {
        in.problem(
            e.position(),
            e.key(),
            "already a cell of the matrix: include adds cells that the axes do not make"
                + " (or that exclude removed)");
      }
    }
    return valuesOf(entries);
  }

  private List<Entry> entries(YamlNode node, String section, boolean isInclude) {
    YamlNode.Sequence list = in.sequence(node, section);
    if (list == null) {
      return List.of();
    }
    List<Entry> entries = new ArrayList<>();
    int number = 0;
    for (YamlNode item : list.items()) {
      number++;
      String path = section + "[" + number + "]";
      YamlNode.Mapping map = in.mapping(item, path);
      if (map == null) {
        continue;
      }
      if (map.entries().isEmpty()) {
        in.problem(
            item.position(),
            path,
            isInclude
                ? "an empty include entry names no axis"
                : "an empty exclude entry would" + " remove every cell");
        continue;
      }
      Map<String, String> values = new LinkedHashMap<>();
      boolean complete = true;
      for (YamlNode.Entry e : map.entries()) {
        String value = value(e, path, isInclude);
        if (value == null) {
          complete = false;
        } else {
          values.put(e.key(), value);
        }
      }
      if (isInclude) {
        for (AxisDraft a : axes.values()) {
          if (!map.byKey().containsKey(a.name)) {
            complete = false;
            in.problem(
                item.position(),
                path,
                "does not name axis '"
                    + a.name
                    + "': an include entry gives a value for every"
                    + " axis");
          }
        }
      }
      entries.add(new Entry(values, item.position(), path, complete));
    }
    return entries;
  }

  /** Checks one {@code axis: value} of an entry; returns the value or null (with a problem). */
  private String value(YamlNode.Entry e, String path, boolean isInclude) {
    String key = path + "." + e.key();
    AxisDraft axis = axes.get(e.key());
    if (axis == null) {
      in.problem(e.keyPosition(), key, "'" + e.key() + "' is not an axis" + axisHint(e.key()));
      return null;
    }
    String value = in.text(e.value(), key);
    if (value == null) {
      return null;
    }
    Position at = e.value().position();
    List<String> known = axis.valueTexts();
    if (known.contains(value)) {
      return value;
    }
    if (!isInclude || axis.kind == Axis.Kind.CASES) {
      in.problem(
          at,
          key,
          "'"
              + value
              + "' is not a "
              + axis.valueWord()
              + " of axis '"
              + axis.name
              + "' ("
              + axis.valueWord()
              + "s: "
              + String.join(", ", known)
              + ")"
              + DidYouMean.hint(value, known));
      return null;
    }
    // An include may add a value the axis does not list: that is what it is for.
    if (axis.kind == Axis.Kind.KNOB) {
      knobs.checkValue(axis.name, value, at, key);
    } else {
      String why = ValueRules.parameterProblem(value);
      if (why != null) {
        in.problem(at, key, why);
        return null;
      }
      Variable v = variables.get(axis.name);
      if (v != null && v.kind == Variable.Kind.PARAMETER) {
        v.values.add(new ValueAt(value, at, key));
      }
    }
    return value;
  }

  private String axisHint(String key) {
    for (AxisDraft a : axes.values()) {
      if (a.kind == Axis.Kind.KNOB && key.equals(a.shortLabel())) {
        return "; did you mean '" + a.name + "'?";
      }
    }
    String hint = DidYouMean.hint(key, axes.keySet());
    if (hint.isEmpty()) {
      return axes.isEmpty()
          ? " (the matrix has no axes)"
          : " (axes: " + String.join(", ", axes.keySet()) + ")";
    }
    return hint;
  }

  /** An exclude entry that another one contains removes nothing more: likely a mistake. */
  private void reportOverlap(Entry first, Entry second) {
    if (!first.complete() || !second.complete()) {
      return;
    }
    Map<String, String> a = first.values();
    Map<String, String> b = second.values();
    if (a.equals(b)) {
      in.problem(
          second.position(),
          second.key(),
          "the same as " + first.key() + " (line " + first.position().line() + ")");
    } else if (b.entrySet().containsAll(a.entrySet())) {
      in.problem(
          second.position(),
          second.key(),
          "removes nothing: "
              + first.key()
              + " (line "
              + first.position().line()
              + ") already removes every cell it matches");
    } else if (a.entrySet().containsAll(b.entrySet())) {
      in.problem(
          first.position(),
          first.key(),
          "removes nothing: "
              + second.key()
              + " (line "
              + second.position().line()
              + ") already removes every cell it matches");
    }
  }

  private boolean isCrossProductCell(Map<String, String> values) {
    for (Map.Entry<String, String> e : values.entrySet()) {
      if (!axes.get(e.getKey()).valueTexts().contains(e.getValue())) {
        return false;
      }
    }
    return true;
  }

  private static boolean matches(Map<String, String> exclude, Entry cell) {
    return cell.values().entrySet().containsAll(exclude.entrySet());
  }

  private static List<Map<String, String>> valuesOf(List<Entry> entries) {
    List<Map<String, String>> out = new ArrayList<>();
    for (Entry e : entries) {
      if (e.complete()) {
        out.add(Collections.unmodifiableMap(e.values()));
      }
    }
    return out;
  }
}
