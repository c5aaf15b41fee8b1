package io.tunelab.matrix;

import io.tunelab.yaml.DidYouMean;
import io.tunelab.yaml.Position;
import io.tunelab.yaml.Problems;
import io.tunelab.yaml.YamlNode;
import java.util.List;

/** Reads typed values out of {@link YamlNode}s, reporting each mismatch as a problem. */
final class NodeReader {
  private final Problems problems;

  NodeReader(Problems problems) {
    this.problems = problems;
  }

  Problems problems() {
    return problems;
  }

  void problem(Position where, String key, String message) {
    problems.add(where, key, message);
  }

  /** The node as a map, or null (with a problem) when it is something else. */
  YamlNode.Mapping mapping(YamlNode node, String key) {
    if (node instanceof YamlNode.Mapping m) {
      return m;
    }
    problems.add(node.position(), key, "expected a map (key: value), got " + node.kind());
    return null;
  }

  /** The node as a list, or null (with a problem) when it is something else. */
  YamlNode.Sequence sequence(YamlNode node, String key) {
    if (node instanceof YamlNode.Sequence s) {
      return s;
    }
    problems.add(node.position(), key, "expected a list, got " + node.kind());
    return null;
  }

  /** The text of a single non-null value, or null (with a problem). */
  String text(YamlNode node, String key) {
    if (node instanceof YamlNode.Scalar s && !s.isNull()) {
      return s.text();
    }
    String got = node instanceof YamlNode.Scalar ? "no value" : node.kind();
    problems.add(node.position(), key, "expected a single value, got " + got);
    return null;
  }

  /** An integer in {@code [min, max]}, or {@code fallback} (with a problem). */
  long integer(YamlNode node, String key, long min, long max, long fallback) {
    String text = text(node, key);
    if (text == null) {
      return fallback;
    }
    try {
      long value = Long.parseLong(text);
      if (value >= min && value <= max) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below with the range
    }
    String range;
    if (min == Long.MIN_VALUE) {
      range = "";
    } else {
      range = max == Long.MAX_VALUE ? " of at least " + min : " from " + min + " to " + max;
    }
    problems.add(node.position(), key, "'" + text + "' is not a whole number" + range);
    return fallback;
  }

  /** Reports every key of {@code map} that is not in {@code allowed}, with a suggestion. */
  void onlyKeys(YamlNode.Mapping map, String path, List<String> allowed) {
    for (YamlNode.Entry e : map.entries()) {
      if (!allowed.contains(e.key())) {
        problems.add(
            e.keyPosition(),
            join(path, e.key()),
            "unknown key" + DidYouMean.hint(e.key(), allowed));
      }
    }
  }

  /** The key path of a child: {@code workload} + {@code dd} is {@code workload.dd}. */
  static String join(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }
}
