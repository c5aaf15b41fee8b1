package io.tunelab.matrix;

import io.tunelab.yaml.DidYouMean;
import io.tunelab.yaml.YamlNode;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Reads {@code repeat:} — a count, or {@code {min, max, target, compare}} — and {@code metric:}
 * into a {@link RepeatRule}.
 */
final class RepeatReader {
  private static final List<String> KEYS = List.of("min", "max", "target", "compare");
  private static final Pattern PERCENT = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)%");
  private static final Pattern METRIC = Pattern.compile("[A-Za-z][A-Za-z0-9_.%/-]*");
  private static final int DEFAULT_MIN = 3;

  private final NodeReader in;
  private final int maxRepeat;

  RepeatReader(NodeReader in, int maxRepeat) {
    this.in = in;
    this.maxRepeat = maxRepeat;
  }

  /**
   * @param node the {@code repeat:} value (or its {@code --set}), null when absent
   * @param key how messages name it
   */
  RepeatRule read(YamlNode node, String key, YamlNode metricNode, List<AxisDraft> axes) {
    String metric = metric(metricNode);
    if (!(node instanceof YamlNode.Mapping map)) {
      int n = node == null ? 1 : (int) in.integer(node, key, 1, maxRepeat, 1);
      return RepeatRule.fixed(n, metric);
    }
    in.onlyKeys(map, key, KEYS);
    YamlNode maxNode = map.get("max");
    YamlNode targetNode = map.get("target");
    if (maxNode == null || targetNode == null) {
      in.problem(
          map.position(),
          key,
          "an adaptive repeat needs max and target, e.g. {min: 3, max: 12, target: 2%};"
              + " for a fixed count write repeat: 5");
      return RepeatRule.fixed(1, metric);
    }
    int max = (int) in.integer(maxNode, key + ".max", 2, maxRepeat, 2);
    YamlNode minNode = map.get("min");
    int min =
        minNode == null
            ? Math.min(DEFAULT_MIN, max)
            : (int) in.integer(minNode, key + ".min", 2, maxRepeat, 2);
    if (minNode != null && min > max) {
      in.problem(minNode.position(), key + ".min", min + " is above max (" + max + ")");
      min = max;
    }
    double target = target(targetNode, key + ".target");
    String compare = map.get("compare") == null ? null : compare(map.get("compare"), key, axes);
    return new RepeatRule(min, max, target, metric, compare);
  }

  /**
   * The compared axis as the matrix writes it; null, with a problem, when there is no such axis.
   */
  private String compare(YamlNode node, String key, List<AxisDraft> axes) {
    String name = in.text(node, key + ".compare");
    if (name == null) {
      return null;
    }
    List<String> names = new ArrayList<>();
    for (AxisDraft a : axes) {
      if (a.name.equals(name)) {
        if (a.values.size() >= 2) {
          return name;
        }
        in.problem(
            node.position(),
            key + ".compare",
            "axis '"
                + name
                + "' has "
                + a.values.size()
                + " value; compare needs an axis of two values or more");
        return null;
      }
      names.add(a.name);
    }
    String hint = "";
    for (AxisDraft a : axes) {
      if (a.shortLabel().equals(name)) {
        hint = "; did you mean '" + a.name + "'?";
      }
    }
    if (hint.isEmpty()) {
      hint = DidYouMean.hint(name, names);
    }
    in.problem(
        node.position(),
        key + ".compare",
        "'"
            + name
            + "' is not an axis of the matrix"
            + (hint.isEmpty()
                ? names.isEmpty()
                    ? " (the matrix has no axes)"
                    : " (axes: " + String.join(", ", names) + ")"
                : hint));
    return null;
  }

  private double target(YamlNode node, String key) {
    String text = in.text(node, key);
    if (text == null) {
      return 0.5;
    }
    var m = PERCENT.matcher(text.trim());
    double pct = m.matches() ? Double.parseDouble(m.group(1)) : -1;
    if (pct <= 0 || pct >= 100) {
      in.problem(
          node.position(),
          key,
          "'"
              + text
              + "' is not a percentage above 0% and below 100%, such as 2%: the 95% confidence"
              + " half-width of the mean, as a share of the mean");
      return 0.5;
    }
    return pct / 100;
  }

  private String metric(YamlNode node) {
    if (node == null) {
      return null;
    }
    String text = in.text(node, "metric");
    if (text != null && !METRIC.matcher(text).matches()) {
      in.problem(
          node.position(),
          "metric",
          "'" + text + "' is not a metric name, such as mib_per_s, iops or seconds");
      return null;
    }
    return text;
  }
}
