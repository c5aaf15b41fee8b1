package io.tunelab.matrix;

import io.tunelab.yaml.YamlNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Puts the values of {@code params:} into the document before the rest of it is read: every {@code
 * ${name}} of a parameter, in values and in keys (knob names), becomes its value, so that setup,
 * steps, knobs and the workload are checked with the values they will run with. Positions stay
 * those of the file.
 */
final class ParamsSubstitution {
  private final NodeReader in;
  private final Map<String, String> params;
  private final Set<String> overridden;

  private ParamsSubstitution(NodeReader in, Map<String, String> params, Set<String> overridden) {
    this.in = in;
    this.params = params;
    this.overridden = overridden;
  }

  /**
   * The top-level map with every entry but {@code params} itself substituted.
   *
   * @param overridden the names a {@code --set} gave, for messages
   */
  static YamlNode.Mapping apply(
      NodeReader in, YamlNode.Mapping top, Map<String, String> params, Set<String> overridden) {
    if (params.isEmpty()) {
      return top;
    }
    ParamsSubstitution s = new ParamsSubstitution(in, params, overridden);
    List<YamlNode.Entry> entries = new ArrayList<>();
    for (YamlNode.Entry e : top.entries()) {
      entries.add(
          e.key().equals("params")
              ? e
              : new YamlNode.Entry(e.key(), e.keyPosition(), s.node(e.value(), e.key())));
    }
    return mapping(entries, top);
  }

  private YamlNode node(YamlNode node, String path) {
    if (node instanceof YamlNode.Scalar s) {
      return s.isNull() ? s : new YamlNode.Scalar(text(s.text()), false, s.position());
    }
    if (node instanceof YamlNode.Sequence list) {
      List<YamlNode> items = new ArrayList<>(list.items().size());
      for (YamlNode item : list.items()) {
        items.add(node(item, path + "[" + (items.size() + 1) + "]"));
      }
      return new YamlNode.Sequence(List.copyOf(items), list.position());
    }
    YamlNode.Mapping map = (YamlNode.Mapping) node;
    List<YamlNode.Entry> entries = new ArrayList<>(map.entries().size());
    Map<String, YamlNode.Entry> seen = new LinkedHashMap<>();
    for (YamlNode.Entry e : map.entries()) {
      String childPath = NodeReader.join(path, e.key());
      if (!keySafe(e, childPath)) {
        continue;
      }
      String key = text(e.key());
      YamlNode.Entry earlier = seen.get(key);
      if (earlier != null) {
        in.problem(
            e.keyPosition(),
            childPath,
            "is '"
                + key
                + "' once the params are put in, like the key at line "
                + earlier.keyPosition().line());
        continue;
      }
      YamlNode.Entry substituted =
          new YamlNode.Entry(key, e.keyPosition(), node(e.value(), childPath));
      seen.put(key, substituted);
      entries.add(substituted);
    }
    return mapping(entries, map);
  }

  /**
   * Refuses a parameter whose value would lead a key elsewhere: keys are knob names, and a {@code
   * /} or {@code ..} in a device or path component names another file.
   */
  private boolean keySafe(YamlNode.Entry e, String path) {
    boolean safe = true;
    for (String name : Substitution.namesOrNone(e.key())) {
      String value = params.get(name);
      if (value != null && (value.contains("/") || value.contains(".."))) {
        in.problem(
            e.keyPosition(),
            path,
            "${"
                + name
                + "} is '"
                + value
                + "'"
                + (overridden.contains(name) ? " (--set " + name + ")" : "")
                + ": a value put into a knob name may not hold '/' or '..'");
        safe = false;
      }
    }
    return safe;
  }

  private String text(String template) {
    return Substitution.withValuesOf(template, params);
  }

  private static YamlNode.Mapping mapping(List<YamlNode.Entry> entries, YamlNode.Mapping like) {
    Map<String, YamlNode.Entry> byKey = new LinkedHashMap<>();
    for (YamlNode.Entry e : entries) {
      byKey.put(e.key(), e);
    }
    return new YamlNode.Mapping(List.copyOf(entries), Map.copyOf(byKey), like.position());
  }
}
