package io.tunelab.matrix;

import io.tunelab.yaml.DidYouMean;
import io.tunelab.yaml.Position;
import io.tunelab.yaml.Problem;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Replaces {@code ${name}} in templates. A name is letters, digits and {@code _}, not starting
 * with a digit. {@code $${} stands for a literal {@code ${} (for shell syntax such as {@code
 * $${HOME:-/root}}); any other {@code $} is left alone, so {@code $HOME} and {@code $(date)}
 * reach the shell as written. Substituted values are inserted as they are, never re-scanned.
 *
 * <p>A list variable (a {@code capture: NAME[]}) is held in a variables map as its elements, one
 * per line ({@link #listValue}); no element can hold a line break. It is used as {@code
 * ${NAME[*]}} (one knob or device per element, see {@link #expand}), {@code ${NAME[proc]}} (the
 * element of the workload process {@code ${proc}}) or {@code ${#NAME}} (the number of elements).
 */
public final class Substitution {
  private Substitution() {}

  /** One {@code ${…}} of a template. */
  record Reference(String name, Form form) {
    /** How a variable is referred to. */
    enum Form {
      /** {@code ${name}}. */
      VALUE,
      /** {@code ${name[*]}}: every element of a list, one expansion each. */
      EACH,
      /** {@code ${name[proc]}}: the element numbered {@code ${proc}}. */
      AT_PROC,
      /** {@code ${#name}}: the number of elements of a list. */
      COUNT
    }

    /** The reference as written. */
    String text() {
      return switch (form) {
        case VALUE -> "${" + name + "}";
        case EACH -> "${" + name + "[*]}";
        case AT_PROC -> "${" + name + "[proc]}";
        case COUNT -> "${#" + name + "}";
      };
    }
  }

  /** The value a variables map holds for a list: its elements, one per line. */
  public static String listValue(List<String> elements) {
    return String.join("\n", elements);
  }

  /** The elements of a list variable's value ({@link #listValue}); none for an empty value. */
  public static List<String> elements(String listValue) {
    return listValue.isEmpty() ? List.of() : List.of(listValue.split("\n", -1));
  }

  /**
   * Substitutes every {@code ${…}} of {@code template} from {@code vars}.
   *
   * @param where where the template was written, for the message of an unknown name
   * @throws MatrixException when a name is not in {@code vars}, the template is malformed or holds
   *     a {@code ${name[*]}} (which {@link #expand} resolves)
   */
  public static String apply(String template, Map<String, String> vars, Position where) {
    if (template.indexOf('$') < 0) {
      return template;
    }
    return substitute(template, vars, where, null, null);
  }

  /**
   * Substitutes {@code template} once per element of the list it names as {@code ${name[*]}}, or
   * once when it names none. A template may expand one list (the loader checks that).
   *
   * @return the substituted texts, in the order of the list's elements; none for an empty list
   * @throws MatrixException as {@link #apply}
   */
  public static List<String> expand(String template, Map<String, String> vars, Position where) {
    String each = null;
    try {
      for (Reference r : refs(template)) {
        if (r.form() == Reference.Form.EACH) {
          each = r.name();
          break;
        }
      }
    } catch (IllegalArgumentException e) {
      throw new MatrixException(new Problem(where, template, e.getMessage()));
    }
    if (each == null) {
      return List.of(apply(template, vars, where));
    }
    List<String> texts = new ArrayList<>();
    for (String element : elements(value(vars, each, where))) {
      texts.add(substitute(template, vars, where, each, element));
    }
    return texts;
  }

  private static String substitute(
      String template, Map<String, String> vars, Position where, String each, String element) {
    try {
      return replace(template, r -> resolve(r, vars, where, each, element));
    } catch (IllegalArgumentException e) {
      throw new MatrixException(new Problem(where, template, e.getMessage()));
    }
  }

  private static String resolve(
      Reference r, Map<String, String> vars, Position where, String each, String element) {
    switch (r.form()) {
      case VALUE:
        return value(vars, r.name(), where);
      case COUNT:
        return Integer.toString(elements(value(vars, r.name(), where)).size());
      case AT_PROC:
        List<String> elements = elements(value(vars, r.name(), where));
        String proc = value(vars, Variables.PROC, where);
        int n = Integer.parseInt(proc);
        if (n >= elements.size()) {
          throw new MatrixException(
              new Problem(
                  where,
                  r.text(),
                  "process "
                      + n
                      + " has no element of list '"
                      + r.name()
                      + "', which has "
                      + elements.size()
                      + ": run at most ${#"
                      + r.name()
                      + "} processes"));
        }
        return elements.get(n);
      default:
        if (r.name().equals(each)) {
          return element;
        }
        throw new MatrixException(
            new Problem(
                where,
                r.text(),
                "a list is expanded element by element only in knob names and monitor devices"));
    }
  }

  private static String value(Map<String, String> vars, String name, Position where) {
    String value = vars.get(name);
    if (value == null) {
      throw new MatrixException(
          new Problem(
              where,
              "${" + name + "}",
              "unknown variable '" + name + "'" + DidYouMean.hint(name, vars.keySet())));
    }
    return value;
  }

  /**
   * The template with each {@code ${name}} of a name in {@code values} replaced by its value; every
   * other reference, a {@code $${} and a malformed {@code ${} stay as written, for the checks and
   * substitutions that come later.
   */
  static String withValuesOf(String template, Map<String, String> values) {
    if (template.indexOf("${") < 0) {
      return template;
    }
    StringBuilder out = new StringBuilder(template.length() + 16);
    int i = 0;
    while (i < template.length()) {
      if (template.startsWith("$${", i)) {
        out.append("$${");
        i += 3;
      } else if (template.startsWith("${", i)) {
        int close = template.indexOf('}', i + 2);
        if (close < 0) {
          out.append(template, i, template.length());
          break;
        }
        String value = values.get(template.substring(i + 2, close));
        if (value == null) {
          out.append(template, i, close + 1);
        } else {
          out.append(value);
        }
        i = close + 1;
      } else {
        out.append(template.charAt(i++));
      }
    }
    return out.toString();
  }

  /**
   * The names a template refers to, in order of first appearance, whatever the form of reference.
   *
   * @throws IllegalArgumentException when the template is malformed (an unterminated or invalid
   *     {@code ${…}})
   */
  public static Set<String> names(String template) {
    return new LinkedHashSet<>(references(template));
  }

  /** The names a template refers to, as {@link #names}; none when it is malformed. */
  static Set<String> namesOrNone(String template) {
    try {
      return names(template);
    } catch (IllegalArgumentException e) {
      return Set.of(); // reported where the template is read
    }
  }

  /** Like {@link #names} but keeping repeats; for checks that count references. */
  static List<String> references(String template) {
    List<String> names = new ArrayList<>();
    for (Reference r : refs(template)) {
      names.add(r.name());
    }
    return names;
  }

  /** Every reference of a template, in order, with repeats. */
  static List<Reference> refs(String template) {
    List<Reference> refs = new ArrayList<>();
    if (template.indexOf('$') < 0) {
      return refs;
    }
    scan(
        template,
        new Sink() {
          @Override
          public void literal(String text, int from, int to) {}

          @Override
          public void reference(Reference r) {
            refs.add(r);
          }
        });
    return refs;
  }

  /**
   * The template with every reference replaced by {@code word}, for checks that need a plain text.
   *
   * @throws IllegalArgumentException when the template is malformed
   */
  static String withEveryReferenceAs(String template, String word) {
    return replace(template, r -> word);
  }

  /** The template with every reference left out and {@code $${} as {@code ${}: what is literal. */
  static String literalText(String template) {
    return replace(template, r -> "");
  }

  /** The template's literal text with each reference replaced by what {@code value} gives it. */
  private static String replace(String template, Function<Reference, String> value) {
    StringBuilder out = new StringBuilder(template.length() + 16);
    scan(
        template,
        new Sink() {
          @Override
          public void literal(String text, int from, int to) {
            out.append(text, from, to);
          }

          @Override
          public void reference(Reference r) {
            out.append(value.apply(r));
          }
        });
    return out.toString();
  }

  /** Receives the pieces of a template in order. */
  private interface Sink {
    void literal(String text, int from, int to);

    void reference(Reference r);
  }

  private static void scan(String t, Sink sink) {
    int literalStart = 0;
    int i = 0;
    while (i < t.length()) {
      if (t.startsWith("$${", i)) {
        sink.literal(t, literalStart, i);
        literalStart = i + 1; // keep "${" as text
        i += 3;
      } else if (t.startsWith("${", i)) {
        int close = t.indexOf('}', i + 2);
        if (close < 0) {
          throw new IllegalArgumentException(
              "unterminated '${' in '" + t + "' (write '$${' for a literal '${')");
        }
        Reference r = parse(t.substring(i + 2, close));
        sink.literal(t, literalStart, i);
        sink.reference(r);
        i = close + 1;
        literalStart = i;
      } else {
        i++;
      }
    }
    sink.literal(t, literalStart, t.length());
  }

  private static Reference parse(String inside) {
    if (isName(inside)) {
      return new Reference(inside, Reference.Form.VALUE);
    }
    if (inside.startsWith("#") && isName(inside.substring(1))) {
      return new Reference(inside.substring(1), Reference.Form.COUNT);
    }
    int bracket = inside.indexOf('[');
    if (bracket > 0 && isName(inside.substring(0, bracket))) {
      String index = inside.substring(bracket);
      String name = inside.substring(0, bracket);
      if (index.equals("[*]")) {
        return new Reference(name, Reference.Form.EACH);
      }
      if (index.equals("[proc]")) {
        return new Reference(name, Reference.Form.AT_PROC);
      }
      throw new IllegalArgumentException(
          "'${"
              + inside
              + "}' is not a variable: a list is used as ${"
              + name
              + "[*]}, ${"
              + name
              + "[proc]} or ${#"
              + name
              + "}");
    }
    throw new IllegalArgumentException(
        "'${"
            + inside
            + "}' is not a variable: a name is letters, digits and _"
            + " (write '$${' for a literal '${')");
  }

  /** Whether {@code s} can name a variable: {@code [A-Za-z_][A-Za-z0-9_]*}. */
  static boolean isName(String s) {
    if (s.isEmpty() || Character.isDigit(s.charAt(0))) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
