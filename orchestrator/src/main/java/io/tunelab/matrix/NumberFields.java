package io.tunelab.matrix;

import io.tunelab.yaml.YamlNode;
import java.util.List;

/**
 * Checks the numeric fields of a workload (sizes, counts, processes), written literally or as one
 * {@code ${parameter}}: then each value the parameter takes is checked, where it was written.
 */
final class NumberFields {
  static final int MAX_PROCESSES = 10_000;

  private final NodeReader in;
  private final Variables variables;

  NumberFields(NodeReader in, Variables variables) {
    this.in = in;
    this.variables = variables;
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

  /** The number of processes: {@code 1} when left out, null (with a problem) when invalid. */
  String processes(YamlNode node, String key) {
    if (node == null) {
      return "1";
    }
    String text = in.text(node, key);
    if (text == null) {
      return null;
    }
    int before = in.problems().size();
    checkWholeNumber(node, text, key, MAX_PROCESSES);
    return in.problems().size() == before ? text : null;
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
