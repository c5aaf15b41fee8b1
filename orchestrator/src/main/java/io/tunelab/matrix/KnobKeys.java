package io.tunelab.matrix;

import io.tunelab.knob.Knob;
import io.tunelab.knob.KnobCatalogue;
import io.tunelab.knob.KnobValues;
import io.tunelab.yaml.Position;

/**
 * Checks the knobs a matrix writes: each role-qualified key against the knob catalogue, and each
 * value against what the kernel would accept, so such a mistake exits 2 before a host is touched.
 */
final class KnobKeys {
  private static final String PLACEHOLDER = "x";

  private final NodeReader in;
  private final Roles roles;
  private final VariableUses uses;

  KnobKeys(NodeReader in, Roles roles, VariableUses uses) {
    this.in = in;
    this.roles = roles;
    this.uses = uses;
  }

  /** Reports a key that is neither a knob of a declared role nor a parameter name. */
  void reportNotKnobOrParameter(String key, Position at, String path) {
    int dot = key.indexOf('.');
    if (dot < 0) {
      in.problem(
          at,
          path,
          "'"
              + key
              + "' is neither a knob ('<role>.<knob>') nor a parameter name"
              + " (letters, digits and _, not starting with a digit)");
    } else if (knobParses(key)) {
      String role = roles.onlyRole() == null ? "<role>" : roles.onlyRole();
      in.problem(
          at,
          path,
          "knob '" + key + "' needs a role: write '" + role + "." + key + "'" + roles.list());
    } else {
      String role = key.substring(0, dot);
      in.problem(
          at,
          path,
          "unknown role '" + role + "' in knob '" + key + "'" + roles.list() + roles.hint(role));
    }
  }

  /**
   * Checks a role-qualified knob key against the knob catalogue, with each {@code ${var}} standing
   * for a placeholder word, and records its variables as uses.
   */
  void checkKey(String key, Position at, String path) {
    if (Kernels.isKey(key)) {
      return;
    }
    String knob = key.substring(key.indexOf('.') + 1);
    if (knob.isEmpty()) {
      in.problem(at, path, "the knob is missing after role '" + Roles.roleOf(key) + "'");
      return;
    }
    String probe;
    try {
      probe = withPlaceholders(knob);
    } catch (IllegalArgumentException e) {
      in.problem(at, path, e.getMessage());
      return;
    }
    try {
      KnobCatalogue.parse(probe);
    } catch (IllegalArgumentException e) {
      String why = e.getMessage();
      in.problem(at, path, why == null || why.isBlank() ? "unknown knob '" + knob + "'" : why);
      return;
    }
    uses.use(knob, at, path, VariableUses.Context.KNOB_NAME);
  }

  /**
   * Checks a value written to knob {@code knobKey} (role-qualified): shell safety, and — when it
   * holds no variable — what the kernel would accept on any host (whole numbers, ranges, sizes).
   * Its variables are checked with the other uses.
   */
  void checkValue(String knobKey, String value, Position at, String key) {
    String why = ValueRules.knobValueProblem(value);
    if (why != null) {
      in.problem(at, key, why);
      return;
    }
    uses.use(value, at, key, VariableUses.Context.KNOB);
    if (Kernels.isKey(knobKey)) {
      String notRelease = Substitution.names(value).isEmpty() ? Kernels.problem(value) : null;
      if (notRelease != null) {
        in.problem(at, key, notRelease);
      }
      return;
    }
    if (Substitution.names(value).isEmpty()) {
      try {
        Knob knob =
            KnobCatalogue.parse(withPlaceholders(knobKey.substring(knobKey.indexOf('.') + 1)));
        KnobValues.validate(knob, value).ifPresent(problem -> in.problem(at, key, problem));
      } catch (IllegalArgumentException unknownKnob) {
        // reported where the knob's name is checked
      }
    }
  }

  private static boolean knobParses(String knob) {
    try {
      KnobCatalogue.parse(withPlaceholders(knob));
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static String withPlaceholders(String template) {
    return Substitution.withEveryReferenceAs(template, PLACEHOLDER);
  }
}
