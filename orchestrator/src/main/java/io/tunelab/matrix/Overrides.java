package io.tunelab.matrix;

import io.tunelab.yaml.DidYouMean;
import io.tunelab.yaml.Position;
import io.tunelab.yaml.YamlNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code --set NAME=VALUE} of a run, each taken by what it names: a {@code params:} entry, one
 * of {@link #KEYS}, or an axis. A name nothing takes is reported with a suggestion.
 */
final class Overrides {
  /** The top-level keys a {@code --set} may give. */
  static final List<String> KEYS = List.of("repeat", "warmup", "seed", "order");

  private final Map<String, String> given;
  private final Set<String> taken = new LinkedHashSet<>();

  Overrides(Map<String, String> given) {
    this.given = given;
  }

  /** The value given for {@code name}, now taken; null when none was given. */
  String take(String name) {
    String value = given.get(name);
    if (value != null) {
      taken.add(name);
    }
    return value;
  }

  /** The key of a problem with the {@code --set} of {@code name}. */
  static String key(String name) {
    return "--set " + name;
  }

  /** The key problems with top-level {@code key} name: {@code --set key} when one is given. */
  String keyOf(String key) {
    return given.containsKey(key) ? key(key) : key;
  }

  /**
   * A top-level key's node: the {@code --set} value standing where the file's value is (or at the
   * top of the file), else the file's node, else null.
   */
  YamlNode keyNode(YamlNode.Mapping top, String key, Position fileStart) {
    YamlNode written = top.get(key);
    String value = take(key);
    if (value == null) {
      return written;
    }
    return new YamlNode.Scalar(value, false, written == null ? fileStart : written.position());
  }

  /** Reports every name nothing took, with the names that could be set. */
  void reportUntaken(NodeReader in, Position fileStart, List<String> params, List<String> axes) {
    List<String> known = new ArrayList<>(params);
    known.addAll(axes);
    known.addAll(KEYS);
    for (String name : given.keySet()) {
      if (taken.contains(name)) {
        continue;
      }
      String hint = DidYouMean.hint(name, known);
      if (hint.isEmpty()) {
        hint =
            " (params: "
                + (params.isEmpty() ? "none" : String.join(", ", params))
                + "; axes: "
                + (axes.isEmpty() ? "none" : String.join(", ", axes))
                + ")";
      }
      in.problem(
          fileStart,
          key(name),
          "'"
              + name
              + "' is neither a params: entry, an axis nor one of "
              + String.join(", ", KEYS)
              + hint);
    }
  }

  /** The overrides as given, in order. */
  Map<String, String> given() {
    return new LinkedHashMap<>(given);
  }
}
