package io.tunelab.matrix;

import io.tunelab.yaml.DidYouMean;
import io.tunelab.yaml.YamlNode;
import java.util.Map;

/** The roles a matrix declares, each on its host: the checks of {@code on:} and of knob keys. */
final class Roles {
  /** How a matrix key is read. */
  enum KeyKind {
    KNOB,
    PARAMETER,
    UNKNOWN_ROLE,
    BAD_NAME
  }

  private final NodeReader in;
  private final Map<String, String> hostByRole;

  Roles(NodeReader in, Map<String, String> hostByRole) {
    this.in = in;
    this.hostByRole = hostByRole;
  }

  /** Role name to host name, in the order written. */
  Map<String, String> asMap() {
    return hostByRole;
  }

  /** The role used when {@code on} is left out, or null when there are several. */
  String onlyRole() {
    return hostByRole.size() == 1 ? hostByRole.keySet().iterator().next() : null;
  }

  /** The names, as messages list them: {@code " (roles: a, b)"}. */
  String list() {
    return " (roles: " + String.join(", ", hostByRole.keySet()) + ")";
  }

  /**
   * The role of a step or workload: its {@code on:} value, or the only role when it is left out.
   * Null (with a problem) when {@code on:} is unknown, or missing while there are several roles.
   */
  String on(YamlNode.Mapping map, String key) {
    YamlNode node = map.get("on");
    if (node != null) {
      return role(node, key);
    }
    String only = onlyRole();
    if (only == null) {
      in.problem(
          map.position(),
          key,
          "required when there are several roles (" + String.join(", ", hostByRole.keySet()) + ")");
    }
    return only;
  }

  /** Checks an {@code on:} value; returns the role or null (with a problem). */
  private String role(YamlNode node, String key) {
    String role = in.text(node, key);
    if (role != null && !hostByRole.containsKey(role)) {
      in.problem(
          node.position(),
          key,
          "unknown role '" + role + "'" + list() + DidYouMean.hint(role, hostByRole.keySet()));
      return null;
    }
    return role;
  }

  /** The role a knob key starts with; the caller has classified it as {@code KNOB}. */
  static String roleOf(String knobKey) {
    return knobKey.substring(0, knobKey.indexOf('.'));
  }

  /** The host a knob key's role runs on: two roles on one host share the host's knobs. */
  String hostOf(String knobKey) {
    return hostByRole.get(roleOf(knobKey));
  }

  KeyKind classify(String key) {
    int dot = key.indexOf('.');
    if (dot > 0 && hostByRole.containsKey(key.substring(0, dot))) {
      return KeyKind.KNOB;
    }
    if (Substitution.isName(key)) {
      return KeyKind.PARAMETER;
    }
    return dot >= 0 ? KeyKind.UNKNOWN_ROLE : KeyKind.BAD_NAME;
  }

  /** The suggestion for a misspelt role, or {@code ""}. */
  String hint(String role) {
    return DidYouMean.hint(role, hostByRole.keySet());
  }
}
