package io.tunelab.report;

import io.tunelab.TunelabException;
import io.tunelab.store.ReportData;
import io.tunelab.store.ReportData.Cell;
import io.tunelab.yaml.DidYouMean;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The axis and its two values {@code compare --axis NAME=BASE,NEW} names, checked against one
 * experiment. The name may be the axis as written in the matrix, as reports show it, or as the cell
 * labels spell it; anything else, a value the axis does not have, or twice the same value fails
 * with exit code 2 and a did-you-mean where one is close.
 *
 * @param axis the axis as written ({@code cell_params.name})
 * @param base the value of the base side
 * @param next the value of the new side
 */
record AxisPair(String axis, String base, String next) {

  /**
   * Reads {@code NAME=BASE,NEW}. The name may itself hold {@code =}: the split is at the first
   * {@code =} after which a known spelling of an axis ends.
   */
  static AxisPair parse(ReportData data, String spec) {
    Map<String, String> spellings = spellings(data);
    int eq = spec.indexOf('=');
    String name = null;
    for (int i = eq; i >= 0; i = spec.indexOf('=', i + 1)) {
      if (spellings.containsKey(spec.substring(0, i))) {
        name = spec.substring(0, i);
        eq = i;
        break;
      }
    }
    if (eq < 0) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          "--axis takes NAME=BASE,NEW, e.g. scheduler=none,mq-deadline");
    }
    if (name == null) {
      throw new AxisNames(data.paramNames())
          .unknown(spec.substring(0, eq), where(data), spellings.keySet());
    }
    String[] values = spec.substring(eq + 1).split(",", -1);
    if (values.length != 2 || values[0].isEmpty() || values[1].isEmpty()) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          "--axis takes NAME=BASE,NEW with exactly two values separated by a comma, not '"
              + spec
              + "'");
    }
    return of(data, name, values[0], values[1]);
  }

  /** The axis {@code given} names, with two of its values. */
  static AxisPair of(ReportData data, String given, String baseValue, String newValue) {
    AxisNames axes = new AxisNames(data.paramNames());
    String where = where(data);
    Map<String, String> spellings = spellings(data);
    String axis = spellings.get(given);
    if (axis == null) {
      throw axes.unknown(given, where, spellings.keySet());
    }
    Set<String> values = new LinkedHashSet<>();
    for (Cell c : data.cells()) {
      values.add(c.params().getOrDefault(axis, "-"));
    }
    for (String v : List.of(baseValue, newValue)) {
      if (!values.contains(v)) {
        throw new TunelabException(
            TunelabException.BAD_INPUT,
            "axis "
                + axes.shown(axis)
                + " of "
                + where
                + " has no value '"
                + v
                + "' (values: "
                + String.join(", ", values)
                + ")"
                + DidYouMean.hint(v, values));
      }
    }
    if (baseValue.equals(newValue)) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          "--axis needs two different values, not " + baseValue + " twice");
    }
    return new AxisPair(axis, baseValue, newValue);
  }

  private static String where(ReportData data) {
    return "experiment " + data.experimentId() + " (" + data.name() + ")";
  }

  /**
   * Every way to name an axis, to the axis as written: the name itself, its short name, and the
   * name its cells' labels use. A spelling two axes would share names neither.
   */
  private static Map<String, String> spellings(ReportData data) {
    AxisNames axes = new AxisNames(data.paramNames());
    Map<String, Set<String>> candidates = new LinkedHashMap<>();
    for (String axis : data.paramNames()) {
      candidates.computeIfAbsent(axis, k -> new LinkedHashSet<>()).add(axis);
    }
    for (String axis : data.paramNames()) {
      candidates.computeIfAbsent(axes.shown(axis), k -> new LinkedHashSet<>()).add(axis);
      String labelled = labelName(data.cells(), axis);
      if (labelled != null) {
        candidates.computeIfAbsent(labelled, k -> new LinkedHashSet<>()).add(axis);
      }
    }
    Map<String, String> spellings = new LinkedHashMap<>();
    candidates.forEach(
        (spelling, named) -> {
          if (data.paramNames().contains(spelling)) {
            spellings.put(spelling, spelling); // a name as written wins over a shorter spelling
          } else if (named.size() == 1) {
            spellings.put(spelling, named.iterator().next());
          }
        });
    return spellings;
  }

  /**
   * The name the first cell with {@code axis} gives it in its label ({@code NAME=VALUE} between
   * {@code /}), if every other cell's label agrees; else null.
   */
  private static String labelName(List<Cell> cells, String axis) {
    String name = null;
    for (Cell c : cells) {
      String value = c.params().get(axis);
      if (value == null) {
        continue;
      }
      if (name == null) {
        List<String> found = namesBefore(c.label(), value);
        if (found.size() != 1) {
          return null;
        }
        name = found.get(0);
      } else if (!("/" + c.label() + "/").contains("/" + name + "=" + value + "/")) {
        return null;
      }
    }
    return name;
  }

  /** The names {@code label} gives to {@code value}: each {@code NAME} of a {@code NAME=value}. */
  private static List<String> namesBefore(String label, String value) {
    List<String> names = new ArrayList<>();
    String text = label + "/";
    String tail = "=" + value + "/";
    for (int i = text.indexOf(tail); i >= 0; i = text.indexOf(tail, i + 1)) {
      int start = text.lastIndexOf('/', i - 1) + 1;
      if (i > start) {
        names.add(text.substring(start, i));
      }
    }
    return names;
  }
}
