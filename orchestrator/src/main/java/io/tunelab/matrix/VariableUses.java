package io.tunelab.matrix;

import io.tunelab.matrix.Substitution.Reference;
import io.tunelab.yaml.DidYouMean;
import io.tunelab.yaml.Position;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The places that name variables, and their checks. Uses are recorded while the file is read and
 * checked at the end, because a template may name a parameter that is defined further down.
 */
final class VariableUses {
  /** Where a template is used; decides which variables it may name. */
  enum Context {
    /**
     * Knob names: parameters, case parameters, setup and cell captures, rep; a list as {@code
     * ${name[*]}}.
     */
    KNOB_NAME,
    /** Knob values: parameters, case parameters, setup and cell captures, rep. */
    KNOB,
    /** Workload fields: as for knob values, plus proc and {@code ${name[proc]}}. */
    WORKLOAD,
    /** Monitor devices: as for knob names. */
    MONITOR,
    /** Setup and teardown steps: only captures of earlier steps. */
    STEP,
    /** cell_setup and cell_teardown: parameters, setup captures, earlier cell captures. */
    CELL_STEP,
    /** before_trial and after_trial commands: as for knob values. */
    TRIAL_STEP
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

  /** Records a setup or teardown step's template, which may name only {@code capturedBefore}. */
  void useInStep(String template, Position at, String key, List<String> capturedBefore) {
    useIn(template, at, key, Context.STEP, List.copyOf(capturedBefore));
  }

  /** Records a cell step's template: besides parameters, it sees {@code capturedBefore}. */
  void useInCellStep(String template, Position at, String key, List<String> capturedBefore) {
    useIn(template, at, key, Context.CELL_STEP, List.copyOf(capturedBefore));
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
      Map<String, Reference> distinct = new LinkedHashMap<>();
      for (Reference r : Substitution.refs(u.template)) {
        distinct.putIfAbsent(r.text(), r);
      }
      Set<String> expanded = new LinkedHashSet<>();
      for (Reference r : distinct.values()) {
        String why = problem(r, u);
        if (why != null) {
          in.problem(u.at, u.key, why);
        } else if (r.form() == Reference.Form.EACH) {
          expanded.add(r.name());
        }
        Variable v = variables.get(r.name());
        if (why == null && v != null && v.kind == Variable.Kind.CASE_PARAMETER) {
          usedCaseParameters.putIfAbsent(r.name(), u);
        }
        if (why == null
            && v != null
            && v.isParameter()
            && (u.context == Context.KNOB_NAME || u.context == Context.MONITOR)) {
          refusePathValues(v, u);
        }
      }
      if (expanded.size() > 1) {
        in.problem(
            u.at,
            u.key,
            "expands "
                + expanded.size()
                + " lists ("
                + String.join(", ", expanded)
                + "): one entry may expand one list");
      }
    }
    usedCaseParameters.forEach(this::checkEveryCaseSets);
  }

  /**
   * A parameter's value put into a knob name (or a monitor's device) may hold no {@code /} or
   * {@code ..}: it would name another file ({@code sysfs:/sys/${x}/…} with {@code x: ../../etc}).
   */
  private void refusePathValues(Variable v, Use u) {
    for (ValueAt value : v.allValues()) {
      if (value.value().contains("/") || value.value().contains("..")) {
        in.problem(
            value.position(),
            value.key(),
            "'"
                + value.value()
                + "' is put into "
                + u.key
                + " (line "
                + u.at.line()
                + "): a value in a knob name may not hold '/' or '..'");
      }
    }
  }

  private String problem(Reference r, Use u) {
    String why =
        switch (u.context) {
          case STEP -> stepProblem(r.name(), u.stepKnown);
          case CELL_STEP -> cellStepProblem(r.name(), u.stepKnown);
          default -> trialProblem(r.name(), u);
        };
    return why != null ? why : formProblem(r, u.context);
  }

  private String trialProblem(String name, Use u) {
    if (name.equals(Variables.REP)) {
      return null;
    }
    if (name.equals(Variables.PROC)) {
      return u.context == Context.WORKLOAD ? null : procProblem();
    }
    Variable v = variables.get(name);
    if (v == null) {
      return unknown(name, trialNames(u.context));
    }
    if (v.kind == Variable.Kind.TEARDOWN_CAPTURE) {
      return "'" + name + "' is captured in teardown, after the last trial";
    }
    if (v.kind == Variable.Kind.CELL_TEARDOWN_CAPTURE) {
      return "'" + name + "' is captured in cell_teardown, after the cell's last trial";
    }
    return null;
  }

  private static String procProblem() {
    return "${proc} (the process number) is known only in workload fields";
  }

  private String stepProblem(String name, List<String> capturedBefore) {
    Variable v = variables.get(name);
    if (capturedBefore.contains(name) || (v != null && v.kind == Variable.Kind.SITE)) {
      return null; // a params: entry is known everywhere; how it is referred to is checked next
    }
    boolean perTrial =
        name.equals(Variables.REP) || name.equals(Variables.PROC) || (v != null && v.isParameter());
    if (perTrial) {
      return "${"
          + name
          + "} changes from trial to trial, but setup and teardown run once per"
          + " experiment: they may use only variables captured by earlier steps";
    }
    if (v != null && isCellCapture(v)) {
      return "'"
          + name
          + "' is "
          + v.describe()
          + ", made for each cell, but setup and teardown run once per experiment: they may"
          + " use only variables captured by earlier steps";
    }
    if (v != null) {
      return "'" + name + "' is captured by a later step (line " + v.position.line() + ")";
    }
    return unknown(name, capturedBefore);
  }

  private String cellStepProblem(String name, List<String> capturedBefore) {
    if (name.equals(Variables.REP)) {
      return "${rep} changes from trial to trial, but cell_setup and cell_teardown run once per"
          + " cell: they may use parameters and captures";
    }
    if (name.equals(Variables.PROC)) {
      return procProblem();
    }
    Variable v = variables.get(name);
    if (v == null) {
      return unknown(name, cellStepNames(capturedBefore));
    }
    if (v.kind == Variable.Kind.TEARDOWN_CAPTURE) {
      return "'" + name + "' is captured in teardown, after the last trial";
    }
    if (isCellCapture(v) && !capturedBefore.contains(name)) {
      return "'" + name + "' is captured by a later step (line " + v.position.line() + ")";
    }
    return null;
  }

  /** The checks of how a variable is referred to: as a value, a list or a list's length. */
  private String formProblem(Reference r, Context context) {
    Variable v = variables.get(r.name());
    boolean list = v != null && v.list;
    String name = r.name();
    if (list && r.form() == Reference.Form.VALUE) {
      return "'"
          + name
          + "' is a list (capture: "
          + name
          + "[]): write ${"
          + name
          + "[*]} in a knob name, ${"
          + name
          + "[proc]} in a workload field or ${#"
          + name
          + "} for the number of elements";
    }
    if (!list && r.form() != Reference.Form.VALUE) {
      return "'"
          + name
          + "' is not a list: "
          + r.text()
          + " needs a list capture (capture: "
          + name
          + "[])";
    }
    if (r.form() == Reference.Form.EACH
        && context != Context.KNOB_NAME
        && context != Context.MONITOR) {
      return r.text()
          + " (one entry per element) is allowed only in knob names and monitor devices";
    }
    if (r.form() == Reference.Form.AT_PROC && context != Context.WORKLOAD) {
      return r.text() + " (the element of process ${proc}) is known only in workload fields";
    }
    return null;
  }

  private static boolean isCellCapture(Variable v) {
    return v.kind == Variable.Kind.CELL_CAPTURE || v.kind == Variable.Kind.CELL_TEARDOWN_CAPTURE;
  }

  private List<String> trialNames(Context context) {
    List<String> names = new ArrayList<>();
    for (Variable v : variables.all()) {
      if (v.kind != Variable.Kind.TEARDOWN_CAPTURE
          && v.kind != Variable.Kind.CELL_TEARDOWN_CAPTURE) {
        names.add(v.name);
      }
    }
    names.add(Variables.REP);
    if (context == Context.WORKLOAD) {
      names.add(Variables.PROC);
    }
    return names;
  }

  private List<String> cellStepNames(List<String> capturedBefore) {
    List<String> names = new ArrayList<>();
    for (Variable v : variables.all()) {
      if (v.kind != Variable.Kind.TEARDOWN_CAPTURE
          && (!isCellCapture(v) || capturedBefore.contains(v.name))) {
        names.add(v.name);
      }
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
