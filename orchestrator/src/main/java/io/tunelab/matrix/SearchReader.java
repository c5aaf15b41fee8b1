package io.tunelab.matrix;

import io.tunelab.yaml.DidYouMean;
import io.tunelab.yaml.YamlNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** Reads {@code search:} into a {@link Search}, every problem at its key. */
final class SearchReader {
  private static final List<String> KEYS =
      List.of("objective", "method", "budget", "confirm", "levels");
  private static final List<String> METHODS = List.of("race", "screen");
  private static final Pattern OBJECTIVE =
      Pattern.compile("(maximize|minimize)\\s+(?:(\\S+)\\.)?([a-z][a-z0-9_]*)");

  /** The smallest race: three rounds of two candidates. */
  private static final int MIN_RACE = 6;

  private static final int MAX_BUDGET = 1_000_000;

  private final NodeReader in;

  SearchReader(NodeReader in) {
    this.in = in;
  }

  /**
   * The search over {@code axes}, or null when the matrix has none (or it has problems, which are
   * reported).
   */
  Search read(YamlNode node, List<AxisDraft> axes) {
    if (node == null) {
      return null;
    }
    YamlNode.Mapping map = in.mapping(node, "search");
    if (map == null) {
      return null;
    }
    in.onlyKeys(map, "search", KEYS);
    YamlNode objectiveNode = map.get("objective");
    YamlNode budgetNode = map.get("budget");
    if (objectiveNode == null || budgetNode == null) {
      in.problem(
          map.position(),
          "search",
          "a search needs an objective and a budget, e.g."
              + " {objective: maximize mib_per_s, budget: 150}");
      return null;
    }
    String objective = in.text(objectiveNode, "search.objective");
    var m = objective == null ? null : OBJECTIVE.matcher(objective.trim());
    if (m != null && !m.matches()) {
      in.problem(
          objectiveNode.position(),
          "search.objective",
          "'"
              + objective
              + "' is not maximize or minimize and a metric, e.g. maximize mib_per_s or"
              + " minimize dd.0.seconds");
    }
    YamlNode methodNode = map.get("method");
    Search.Method method = Search.Method.RACE;
    if (methodNode != null) {
      String name = in.text(methodNode, "search.method");
      if (name != null && !METHODS.contains(name)) {
        in.problem(
            methodNode.position(),
            "search.method",
            "'" + name + "' is not a method" + DidYouMean.hint(name, METHODS));
      } else if ("screen".equals(name)) {
        method = Search.Method.SCREEN;
      }
    }
    int budget = (int) in.integer(budgetNode, "search.budget", MIN_RACE, MAX_BUDGET, MIN_RACE);
    YamlNode confirmNode = map.get("confirm");
    int confirm =
        confirmNode == null
            ? Math.min(Search.DEFAULT_CONFIRM, (budget - MIN_RACE) / 2)
            : (int) in.integer(confirmNode, "search.confirm", 0, MAX_BUDGET, 0);
    if (budget - 2 * confirm < MIN_RACE) {
      in.problem(
          (confirmNode != null ? confirmNode : budgetNode).position(),
          "search." + (confirmNode != null ? "confirm" : "budget"),
          "budget "
              + budget
              + " leaves "
              + (budget - 2 * confirm)
              + " trials for the race after the confirmation's 2 x "
              + confirm
              + "; it needs at least "
              + MIN_RACE);
    }
    Map<String, List<String>> levels = levels(map.get("levels"), method, axes);
    if (m == null || !m.matches()) {
      return null;
    }
    return new Search(
        m.group(2) == null ? "all" : m.group(2),
        m.group(3),
        m.group(1).equals("maximize"),
        budget,
        confirm,
        method,
        levels);
  }

  /**
   * {@code search.levels}: a screen's two levels of some axes, each key an axis (as written, or the
   * part after its last dot when that names one axis) and each value two of its values; by the
   * axis's name as written.
   */
  private Map<String, List<String>> levels(
      YamlNode node, Search.Method method, List<AxisDraft> axes) {
    Map<String, List<String>> levels = new LinkedHashMap<>();
    if (node == null) {
      return levels;
    }
    if (method != Search.Method.SCREEN) {
      in.problem(
          node.position(),
          "search.levels",
          "levels are a screen's: add method: screen, or remove levels (a race draws from every"
              + " value)");
      return levels;
    }
    YamlNode.Mapping map = in.mapping(node, "search.levels");
    if (map == null) {
      return levels;
    }
    List<String> names = axes.stream().map(a -> a.name).toList();
    for (YamlNode.Entry e : map.entries()) {
      String key = "search.levels." + e.key();
      AxisDraft axis = axis(e.key(), axes);
      if (axis == null) {
        in.problem(
            e.keyPosition(),
            key,
            "'"
                + e.key()
                + "' is not an axis of the matrix"
                + DidYouMean.hint(e.key(), names)
                + " (axes: "
                + String.join(", ", names)
                + ")");
        continue;
      }
      List<String> two = two(e.value(), key, axis);
      if (two != null) {
        levels.put(axis.name, two);
      }
    }
    return levels;
  }

  /** The axis {@code key} names: as written, or by the part after its last dot. */
  private static AxisDraft axis(String key, List<AxisDraft> axes) {
    for (AxisDraft a : axes) {
      if (a.name.equals(key)) {
        return a;
      }
    }
    List<AxisDraft> bySuffix = axes.stream().filter(a -> a.name.endsWith("." + key)).toList();
    return bySuffix.size() == 1 ? bySuffix.get(0) : null;
  }

  /** Two different values of {@code axis}, or null (with a problem). */
  private List<String> two(YamlNode node, String key, AxisDraft axis) {
    List<String> values = axis.values.stream().map(ValueAt::value).toList();
    YamlNode.Sequence list = in.sequence(node, key);
    if (list == null) {
      return null;
    }
    if (list.items().size() != 2) {
      in.problem(
          node.position(),
          key,
          "a screen takes two levels of an axis, low and high; got "
              + list.items().size()
              + " (values: "
              + String.join(", ", values)
              + ")");
      return null;
    }
    List<String> two = new ArrayList<>();
    for (YamlNode item : list.items()) {
      String v = in.text(item, key);
      if (v == null) {
        return null;
      }
      if (!values.contains(v)) {
        in.problem(
            item.position(),
            key,
            "'"
                + v
                + "' is not a value of "
                + axis.name
                + DidYouMean.hint(v, values)
                + " (values: "
                + String.join(", ", values)
                + ")");
        return null;
      }
      two.add(v);
    }
    if (two.get(0).equals(two.get(1))) {
      in.problem(node.position(), key, "the two levels are the same value, " + two.get(0));
      return null;
    }
    return two;
  }
}
