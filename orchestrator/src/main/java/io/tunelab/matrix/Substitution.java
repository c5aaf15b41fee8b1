package io.tunelab.matrix;

import io.tunelab.yaml.DidYouMean;
import io.tunelab.yaml.Position;
import io.tunelab.yaml.Problem;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Replaces {@code ${name}} in templates. A name is letters, digits and {@code _}, not starting
 * with a digit. {@code $${} stands for a literal {@code ${} (for shell syntax such as {@code
 * $${HOME:-/root}}); any other {@code $} is left alone, so {@code $HOME} and {@code $(date)}
 * reach the shell as written. Substituted values are inserted as they are, never re-scanned.
 */
public final class Substitution {
  private Substitution() {}

  /**
   * Substitutes every {@code ${name}} of {@code template} from {@code vars}.
   *
   * @param where where the template was written, for the message of an unknown name
   * @throws MatrixException when a name is not in {@code vars} or the template is malformed
   */
  public static String apply(String template, Map<String, String> vars, Position where) {
    if (template.indexOf('$') < 0) {
      return template;
    }
    StringBuilder out = new StringBuilder(template.length() + 16);
    try {
      scan(
          template,
          new Sink() {
            @Override
            public void literal(String text, int from, int to) {
              out.append(text, from, to);
            }

            @Override
            public void variable(String name) {
              String value = vars.get(name);
              if (value == null) {
                throw new MatrixException(
                    new Problem(
                        where,
                        "${" + name + "}",
                        "unknown variable '" + name + "'" + DidYouMean.hint(name, vars.keySet())));
              }
              out.append(value);
            }
          });
    } catch (IllegalArgumentException e) {
      throw new MatrixException(new Problem(where, template, e.getMessage()));
    }
    return out.toString();
  }

  /**
   * The names a template refers to, in order of first appearance.
   *
   * @throws IllegalArgumentException when the template is malformed (an unterminated or invalid
   *     {@code ${…}})
   */
  public static Set<String> names(String template) {
    return new LinkedHashSet<>(references(template));
  }

  /** Like {@link #names} but keeping repeats; for checks that count references. */
  static List<String> references(String template) {
    List<String> names = new ArrayList<>();
    if (template.indexOf('$') < 0) {
      return names;
    }
    scan(
        template,
        new Sink() {
          @Override
          public void literal(String text, int from, int to) {}

          @Override
          public void variable(String name) {
            names.add(name);
          }
        });
    return names;
  }

  /** Receives the pieces of a template in order. */
  private interface Sink {
    void literal(String text, int from, int to);

    void variable(String name);
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
        String name = t.substring(i + 2, close);
        if (!isName(name)) {
          throw new IllegalArgumentException(
              "'${"
                  + name
                  + "}' is not a variable: a name is letters, digits and _"
                  + " (write '$${' for a literal '${')");
        }
        sink.literal(t, literalStart, i);
        sink.variable(name);
        i = close + 1;
        literalStart = i;
      } else {
        i++;
      }
    }
    sink.literal(t, literalStart, t.length());
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
