package io.tunelab.matrix;

import io.tunelab.yaml.DidYouMean;
import io.tunelab.yaml.YamlNode;
import java.util.List;
import java.util.regex.Pattern;

/** Reads {@code search:} into a {@link Search}, every problem at its key. */
final class SearchReader {
  private static final List<String> KEYS = List.of("objective", "method", "budget", "confirm");
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

  /** The search, or null when the matrix has none (or it has problems, which are reported). */
  Search read(YamlNode node) {
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
    if (m == null || !m.matches()) {
      return null;
    }
    return new Search(
        m.group(2) == null ? "all" : m.group(2),
        m.group(3),
        m.group(1).equals("maximize"),
        budget,
        confirm,
        method);
  }
}
