package io.tunelab.matrix;

import io.tunelab.knob.Knob;
import io.tunelab.knob.KnobCatalogue;
import io.tunelab.knob.KnobValues;
import io.tunelab.yaml.DidYouMean;
import io.tunelab.yaml.Position;
import io.tunelab.yaml.YamlNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The names a matrix defines (roles, parameters, case parameters, captures) and the checks of every
 * place that uses them. Uses are recorded while the file is read and checked at the end, because a
 * template may name a parameter that is defined further down.
 */
final class Scope {
  static final String REP = "rep";
  static final String PROC = "proc";
  private static final String PLACEHOLDER = "x";

  /** Where a template is used; decides which variables it may name. */
  enum Context {
    /** Knob names and values: parameters, case parameters, setup captures, rep. */
    KNOB,
    /** Workload fields: as for knobs, plus proc. */
    WORKLOAD,
    /** Setup and teardown steps: only captures of earlier steps. */
    STEP
  }

  /** How a matrix key is read. */
  enum KeyKind {
    KNOB,
    PARAMETER,
    UNKNOWN_ROLE,
    BAD_NAME
  }

  /** A value as written, where, and under which key. */
  record ValueAt(String value, Position position, String key) {}

  /** A variable and where its values come from. */
  static final class Variable {
    enum Kind {
      PARAMETER,
      CASE_PARAMETER,
      SETUP_CAPTURE,
      TEARDOWN_CAPTURE
    }

    final String name;
    final Kind kind;
    final Position position;

    /** For a case parameter: its cases axis. */
    final String axis;

    /** For a parameter: the axis values, then the values of include entries. */
    final List<ValueAt> values = new ArrayList<>();

    /** For a case parameter: case name to its value, for the cases that set it. */
    final Map<String, ValueAt> byCase = new LinkedHashMap<>();

    Variable(String name, Kind kind, Position position, String axis) {
      this.name = name;
      this.kind = kind;
      this.position = position;
      this.axis = axis;
    }

    String describe() {
      switch (kind) {
        case PARAMETER:
          return "a parameter axis";
        case CASE_PARAMETER:
          return "a parameter of cases axis '" + axis + "'";
        case SETUP_CAPTURE:
          return "a setup capture";
        default:
          return "a teardown capture";
      }
    }
  }

  private record Use(
      String template, Position at, String key, Context context, List<String> stepKnown) {}

  private final NodeReader in;
  private final Map<String, String> roles;
  private final Map<String, Variable> variables = new LinkedHashMap<>();
  private final Map<String, Map<String, Position>> casesByAxis = new LinkedHashMap<>();
  private final List<Use> uses = new ArrayList<>();

  Scope(NodeReader in, Map<String, String> roles) {
    this.in = in;
    this.roles = roles;
  }

  Map<String, String> roles() {
    return roles;
  }

  /** The role used when {@code on} is left out, or null when there are several. */
  String onlyRole() {
    return roles.size() == 1 ? roles.keySet().iterator().next() : null;
  }

  /** Checks an {@code on:} value; returns the role or null (with a problem). */
  String role(YamlNode node, String key) {
    String role = in.text(node, key);
    if (role != null && !roles.containsKey(role)) {
      in.problem(
          node.position(),
          key,
          "unknown role '"
              + role
              + "' (roles: "
              + String.join(", ", roles.keySet())
              + ")"
              + DidYouMean.hint(role, roles.keySet()));
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
    return roles.get(roleOf(knobKey));
  }

  KeyKind classify(String key) {
    int dot = key.indexOf('.');
    if (dot > 0 && roles.containsKey(key.substring(0, dot))) {
      return KeyKind.KNOB;
    }
    if (Substitution.isName(key)) {
      return KeyKind.PARAMETER;
    }
    return dot >= 0 ? KeyKind.UNKNOWN_ROLE : KeyKind.BAD_NAME;
  }

  /** Reports a key that is neither a knob of a declared role nor a parameter name. */
  void reportNotKnobOrParameter(String key, Position at, String path) {
    int dot = key.indexOf('.');
    String roleList = " (roles: " + String.join(", ", roles.keySet()) + ")";
    if (dot < 0) {
      in.problem(
          at,
          path,
          "'"
              + key
              + "' is neither a knob ('<role>.<knob>') nor a parameter name"
              + " (letters, digits and _, not starting with a digit)");
    } else if (knobParses(key)) {
      String role = onlyRole() == null ? "<role>" : onlyRole();
      in.problem(
          at, path, "knob '" + key + "' needs a role: write '" + role + "." + key + "'" + roleList);
    } else {
      String role = key.substring(0, dot);
      in.problem(
          at,
          path,
          "unknown role '"
              + role
              + "' in knob '"
              + key
              + "'"
              + roleList
              + DidYouMean.hint(role, roles.keySet()));
    }
  }

  /**
   * Checks a role-qualified knob key against the knob catalogue, with each {@code ${var}} standing
   * for a placeholder word, and records its variables as uses.
   */
  void checkKnobKey(String key, Position at, String path) {
    String knob = key.substring(key.indexOf('.') + 1);
    if (knob.isEmpty()) {
      in.problem(at, path, "the knob is missing after role '" + roleOf(key) + "'");
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
    use(knob, at, path, Context.KNOB);
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
    Map<String, String> placeholders = new LinkedHashMap<>();
    for (String name : Substitution.names(template)) {
      placeholders.put(name, PLACEHOLDER);
    }
    return Substitution.apply(template, placeholders, new Position("", 0, 0));
  }

  /**
   * Checks a value written to knob {@code knobKey} (role-qualified): shell safety, and — when it
   * holds no variable — what the kernel would accept on any host (whole numbers, ranges, sizes), so
   * such a mistake exits 2 before any host is touched. Its variables are checked with the other
   * uses.
   */
  void checkKnobValue(String knobKey, String value, Position at, String key) {
    String why = ValueRules.knobValueProblem(value);
    if (why != null) {
      in.problem(at, key, why);
      return;
    }
    use(value, at, key, Context.KNOB);
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

  /** Checks a parameter value: it will be substituted into shell commands. */
  void checkParameterValue(String value, Position at, String key) {
    String why = ValueRules.parameterProblem(value);
    if (why != null) {
      in.problem(at, key, why);
    }
  }

  /** Records a template for the final check; a malformed one is reported now. */
  void use(String template, Position at, String key, Context context) {
    useIn(template, at, key, context, List.of());
  }

  /** Records a step's template, which may name only {@code capturedBefore}. */
  void useInStep(String template, Position at, String key, List<String> capturedBefore) {
    useIn(template, at, key, Context.STEP, List.copyOf(capturedBefore));
  }

  private void useIn(
      String template, Position at, String key, Context context, List<String> stepKnown) {
    try {
      if (!Substitution.references(template).isEmpty()) {
        uses.add(new Use(template, at, key, context, stepKnown));
      }
    } catch (IllegalArgumentException e) {
      in.problem(at, key, e.getMessage());
    }
  }

  /** Declares a plain parameter axis. */
  Variable defineParameter(String name, Position at, String key) {
    return define(new Variable(name, Variable.Kind.PARAMETER, at, null), key);
  }

  /** Declares the cases of a cases axis, for the check that each sets what is used. */
  void defineCases(String axis, Map<String, Position> cases) {
    casesByAxis.put(axis, cases);
  }

  /** Records that {@code caseName} of {@code axis} sets parameter {@code name}. */
  void defineCaseParameter(String name, String axis, String caseName, ValueAt value) {
    Variable existing = variables.get(name);
    if (existing != null
        && existing.kind == Variable.Kind.CASE_PARAMETER
        && existing.axis.equals(axis)) {
      existing.byCase.put(caseName, value);
      return;
    }
    Variable v =
        define(
            new Variable(name, Variable.Kind.CASE_PARAMETER, value.position(), axis), value.key());
    if (v != null) {
      v.byCase.put(caseName, value);
    }
  }

  /** Declares a captured variable; returns false (with a problem) on a clash. */
  boolean defineCapture(String name, Position at, String key, boolean teardown) {
    Variable.Kind kind = teardown ? Variable.Kind.TEARDOWN_CAPTURE : Variable.Kind.SETUP_CAPTURE;
    return define(new Variable(name, kind, at, null), key) != null;
  }

  /** The variable a template consisting of exactly one {@code ${name}} names, or null. */
  Variable soleParameter(String template) {
    if (!template.startsWith("${") || !template.endsWith("}")) {
      return null;
    }
    Variable v = variables.get(template.substring(2, template.length() - 1));
    boolean isParameter =
        v != null && (v.kind == Variable.Kind.PARAMETER || v.kind == Variable.Kind.CASE_PARAMETER);
    return isParameter ? v : null;
  }

  /** The variable called {@code name}, or null. */
  Variable variable(String name) {
    return variables.get(name);
  }

  private Variable define(Variable v, String key) {
    if (v.name.equals(REP) || v.name.equals(PROC)) {
      in.problem(
          v.position,
          key,
          "'"
              + v.name
              + "' is reserved: ${rep} is the repetition number and ${proc} the"
              + " process number of a workload");
      return null;
    }
    Variable old = variables.putIfAbsent(v.name, v);
    if (old != null) {
      in.problem(
          v.position,
          key,
          "'"
              + v.name
              + "' is already "
              + old.describe()
              + " (line "
              + old.position.line()
              + "); variable names must be unique");
      return null;
    }
    return v;
  }

  /** Checks every recorded use now that every definition is known. */
  void checkUses() {
    Map<String, Use> usedCaseParameters = new LinkedHashMap<>();
    for (Use u : uses) {
      for (String name : new LinkedHashSet<>(Substitution.references(u.template))) {
        String why =
            u.context == Context.STEP ? stepProblem(name, u.stepKnown) : trialProblem(name, u);
        if (why != null) {
          in.problem(u.at, u.key, why);
        }
        Variable v = variables.get(name);
        if (why == null && v != null && v.kind == Variable.Kind.CASE_PARAMETER) {
          usedCaseParameters.putIfAbsent(name, u);
        }
      }
    }
    usedCaseParameters.forEach(this::checkEveryCaseSets);
  }

  private String trialProblem(String name, Use u) {
    if (name.equals(REP)) {
      return null;
    }
    if (name.equals(PROC)) {
      return u.context == Context.WORKLOAD
          ? null
          : "${proc} (the process number) is known only in workload fields";
    }
    Variable v = variables.get(name);
    if (v == null) {
      return unknown(name, trialNames(u.context));
    }
    if (v.kind == Variable.Kind.TEARDOWN_CAPTURE) {
      return "'" + name + "' is captured in teardown, after the last trial";
    }
    return null;
  }

  private String stepProblem(String name, List<String> capturedBefore) {
    if (capturedBefore.contains(name)) {
      return null;
    }
    Variable v = variables.get(name);
    boolean perTrial =
        name.equals(REP)
            || name.equals(PROC)
            || (v != null
                && (v.kind == Variable.Kind.PARAMETER || v.kind == Variable.Kind.CASE_PARAMETER));
    if (perTrial) {
      return "${"
          + name
          + "} changes from trial to trial, but setup and teardown run once per"
          + " experiment: they may use only variables captured by earlier steps";
    }
    if (v != null) {
      return "'" + name + "' is captured by a later step (line " + v.position.line() + ")";
    }
    return unknown(name, capturedBefore);
  }

  private List<String> trialNames(Context context) {
    List<String> names = new ArrayList<>();
    for (Variable v : variables.values()) {
      if (v.kind != Variable.Kind.TEARDOWN_CAPTURE) {
        names.add(v.name);
      }
    }
    names.add(REP);
    if (context == Context.WORKLOAD) {
      names.add(PROC);
    }
    return names;
  }

  private static String unknown(String name, Collection<String> known) {
    String hint = DidYouMean.hint(name, known);
    if (hint.isEmpty()) {
      hint =
          known.isEmpty()
              ? " (no variables are defined here)"
              : " (variables: " + String.join(", ", known) + ")";
    }
    return "unknown variable '" + name + "'" + hint;
  }

  private void checkEveryCaseSets(String name, Use firstUse) {
    Variable v = variables.get(name);
    Map<String, Position> cases = casesByAxis.getOrDefault(v.axis, Map.of());
    for (Map.Entry<String, Position> c : cases.entrySet()) {
      if (!v.byCase.containsKey(c.getKey())) {
        in.problem(
            c.getValue(),
            "matrix." + v.axis + "." + c.getKey(),
            "case '"
                + c.getKey()
                + "' does not set parameter '"
                + name
                + "', which "
                + firstUse.key
                + " uses (line "
                + firstUse.at.line()
                + ")");
      }
    }
  }
}
