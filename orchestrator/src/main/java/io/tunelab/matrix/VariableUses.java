package io.tunelab.matrix;

import io.tunelab.yaml.DidYouMean;
import io.tunelab.yaml.Position;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The places that name variables, and their checks. Uses are recorded while the file is read and
 * checked at the end, because a template may name a parameter that is defined further down.
 */
final class VariableUses {
  /** Where a template is used; decides which variables it may name. */
  enum Context {
    /** Knob names and values: parameters, case parameters, setup captures, rep. */
    KNOB,
    /** Workload fields: as for knobs, plus proc. */
    WORKLOAD,
    /** Setup and teardown steps: only captures of earlier steps. */
    STEP
  }

  private record Use(
      String template, Position at, String key, Context context, List<String> stepKnown) {}

  private final NodeReader in;
  private final Variables variables;
  private final List<Use> uses = new ArrayList<>();

  VariableUses(NodeReader in, Variables variables) {
    this.in = in;
    this.variables = variables;
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

  /** Checks every recorded use now that every definition is known. */
  void check() {
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
    if (name.equals(Variables.REP)) {
      return null;
    }
    if (name.equals(Variables.PROC)) {
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
        name.equals(Variables.REP) || name.equals(Variables.PROC) || (v != null && v.isParameter());
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
    for (Variable v : variables.all()) {
      if (v.kind != Variable.Kind.TEARDOWN_CAPTURE) {
        names.add(v.name);
      }
    }
    names.add(Variables.REP);
    if (context == Context.WORKLOAD) {
      names.add(Variables.PROC);
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
    for (Map.Entry<String, Position> c : variables.cases(v.axis).entrySet()) {
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
