package io.tunelab.yaml;

import java.util.List;
import java.util.Map;

/** A YAML node that remembers where it was written, so every problem can name its place. */
public sealed interface YamlNode permits YamlNode.Scalar, YamlNode.Sequence, YamlNode.Mapping {

  Position position();

  /** What to call this kind of node in a message: "a single value", "a list", "a map". */
  String kind();

  /**
   * A scalar, its text exactly as written ({@code 64M}, {@code 0x10}, {@code on}).
   *
   * @param isNull written as nothing, {@code ~} or {@code null} (unquoted)
   */
  record Scalar(String text, boolean isNull, Position position) implements YamlNode {
    @Override
    public String kind() {
      return isNull ? "nothing" : "a single value";
    }
  }

  /** A list. */
  record Sequence(List<YamlNode> items, Position position) implements YamlNode {
    @Override
    public String kind() {
      return "a list";
    }
  }

  /** A map whose keys are unique; {@code entries} keeps the order written. */
  record Mapping(List<Entry> entries, Map<String, Entry> byKey, Position position)
      implements YamlNode {
    @Override
    public String kind() {
      return "a map";
    }

    /** The value of {@code key}, or null when the map has no such key. */
    public YamlNode get(String key) {
      Entry e = byKey.get(key);
      return e == null ? null : e.value();
    }
  }

  /** One key of a map and its value. */
  record Entry(String key, Position keyPosition, YamlNode value) {}
}
