package io.tunelab.matrix;

import io.tunelab.yaml.YamlNode;
import java.util.List;
import java.util.function.Function;

/**
 * Checks the single-valued fields of a workload (sizes, counts, processes, ionice, …), written
 * literally or as one {@code ${parameter}}: then each value the parameter takes is checked, where
 * it was written. Where a captured value is allowed, it is checked when the experiment runs.
 */
final class NumberFields {

  private final NodeReader in;
  private final Variables variables;
  private final VariableUses uses;

  NumberFields(NodeReader in, Variables variables, VariableUses uses) {
    this.in = in;
    this.variables = variables;
    this.uses = uses;
  }

  /** Checks a size (more than 0 bytes); false when some value is not one. */
  boolean checkSize(YamlNode node, String text, String key) {
    List<ValueAt> values = literalOrParameterValues(node, text, key, "a size such as 1M");
    if (values == null) {
      return false;
    }
    boolean ok = true;
    for (ValueAt v : values) {
      String why = null;
      try {
        if (Sizes.parseBytes(v.value()) == 0) {
          why = "a size must be more than 0";
        }
      } catch (IllegalArgumentException e) {
        why = e.getMessage();
      }
      if (why != null) {
        ok = false;
        in.problem(v.position(), v.key(), why + usedAs(v, key));
      }
    }
    return ok;
  }

  /** Checks a whole number from 1 to {@code max}. */
  void checkWholeNumber(YamlNode node, String text, String key, long max) {
    List<ValueAt> values = literalOrParameterValues(node, text, key, "a whole number");
    if (values == null) {
      return;
    }
    for (ValueAt v : values) {
      long n;
      try {
        n = Long.parseLong(v.value());
      } catch (NumberFormatException e) {
        n = 0;
      }
      if (n < 1 || n > max) {
        String range = max == Long.MAX_VALUE ? "of at least 1" : "from 1 to " + max;
        in.problem(
            v.position(),
            v.key(),
            "'" + v.value() + "' is not a whole number " + range + usedAs(v, key));
      }
    }
  }

  /**
   * The number of processes: {@code 1} when left out, null (with a problem) when invalid. Besides a
   * whole number or a parameter, it may be a captured {@code ${variable}} or {@code ${#list}}:
   * known only when the experiment runs, and checked then.
   */
  String processes(YamlNode node, String key) {
    if (node == null) {
      return "1";
    }
    String text = in.text(node, key);
    if (text == null) {
      return null;
    }
    Substitution.Reference sole = soleReference(text);
    if (sole != null && isRunTimeValue(sole, true)) {
      uses.use(text, node.position(), key, VariableUses.Context.WORKLOAD);
      return text;
    }
    if (text.indexOf('$') >= 0 && variables.soleParameter(text) == null) {
      in.problem(
          node.position(),
          key,
          "write a whole number, a single ${parameter}, a captured ${variable} or ${#list}, not '"
              + text
              + "'");
      return null;
    }
    int before = in.problems().size();
    checkWholeNumber(node, text, key, JobValues.MAX_PROCESSES);
    return in.problems().size() == before ? text : null;
  }

  /**
   * A field that is a literal or a single {@code ${variable}}, e.g. {@code ionice}: a literal and
   * every value of a parameter are checked by {@code problem} (null when fine); a captured value is
   * checked when the trial runs. Null (with a problem) when invalid.
   *
   * @param what what to write, for the message of a field that is neither: {@code an ionice class}
   */
  String literalOrVariable(
      YamlNode node, String key, String what, Function<String, String> problem) {
    String text = in.text(node, key);
    if (text == null) {
      return null;
    }
    Substitution.Reference sole = soleReference(text);
    if (sole != null && isRunTimeValue(sole, false)) {
      uses.use(text, node.position(), key, VariableUses.Context.WORKLOAD);
      return text;
    }
    List<ValueAt> values;
    if (text.indexOf('$') < 0) {
      values = List.of(new ValueAt(text, node.position(), key));
    } else {
      Variable v = variables.soleParameter(text);
      if (v == null) {
        in.problem(
            node.position(), key, "write " + what + " or a single ${variable}, not '" + text + "'");
        return null;
      }
      values = v.allValues();
      // so that every case of a cases axis must set it, as for any other template
      uses.use(text, node.position(), key, VariableUses.Context.WORKLOAD);
    }
    boolean ok = true;
    for (ValueAt v : values) {
      String why = problem.apply(v.value());
      if (why != null) {
        ok = false;
        in.problem(v.position(), v.key(), why + usedAs(v, key));
      }
    }
    return ok ? text : null;
  }

  /** The one reference a template consists of, or null. */
  private static Substitution.Reference soleReference(String text) {
    try {
      List<Substitution.Reference> refs = Substitution.refs(text);
      return refs.size() == 1 && Substitution.literalText(text).isEmpty() ? refs.get(0) : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * Whether a sole reference is resolved only at run time (a capture), or names no variable at all
   * (then the variable checks report it); {@code ${#list}} only where a count is due.
   */
  private boolean isRunTimeValue(Substitution.Reference r, boolean count) {
    if (r.name().equals(Variables.REP) || r.name().equals(Variables.PROC)) {
      return false;
    }
    Variable v = variables.get(r.name());
    if (r.form() == Substitution.Reference.Form.COUNT) {
      return count;
    }
    return r.form() == Substitution.Reference.Form.VALUE && (v == null || v.isCapture());
  }

  /**
   * The values a field can take: the literal itself, or every value of the one parameter it names.
   * Null (with a problem) when it is neither.
   */
  private List<ValueAt> literalOrParameterValues(
      YamlNode node, String text, String key, String what) {
    if (text.indexOf('$') < 0) {
      return List.of(new ValueAt(text, node.position(), key));
    }
    Variable v = variables.soleParameter(text);
    if (v == null) {
      in.problem(
          node.position(),
          key,
          "write "
              + what
              + " or a single ${parameter} (a matrix or case parameter), not '"
              + text
              + "'");
      return null;
    }
    return v.allValues();
  }

  /** Appended to a problem found in a parameter's value: which field needed it. */
  private static String usedAs(ValueAt v, String field) {
    return v.key().equals(field) ? "" : " (" + field + " uses it)";
  }
}
