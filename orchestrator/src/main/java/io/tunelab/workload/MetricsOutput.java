package io.tunelab.workload;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code metrics} parser: any program's stdout lines {@code NAME VALUE [UNIT]}, e.g. {@code
 * read_iops 1520.5 IO/s} or {@code elapsed_ms 1.2e3}. NAME is {@code [a-z][a-z0-9_]*}; VALUE a
 * decimal number, exponent allowed; UNIT one optional word. Every other line is ignored, so a
 * program may print prose around its metrics. A NAME printed twice keeps its last value (a program
 * reporting progress ends with its final figure) at the place it was first seen.
 *
 * @param metrics the metrics found, in order of first appearance
 * @param lastLine the last non-blank stdout line, for the message when nothing was found; null when
 *     stdout was empty
 */
public record MetricsOutput(List<ParsedMetric> metrics, String lastLine) {
  private static final Pattern LINE =
      Pattern.compile(
          "\\s*([a-z][a-z0-9_]*)\\s+([-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?)"
              + "(?:\\s+(\\S+))?\\s*");

  /** The common metrics: a time, a size and rates, none of which can be below zero. */
  private static final Set<String> NEVER_NEGATIVE = Set.of("seconds", "bytes", "mib_per_s", "iops");

  public MetricsOutput {
    metrics = List.copyOf(metrics);
  }

  /** Reads every {@code NAME VALUE [UNIT]} line of {@code stdout}. */
  public static MetricsOutput parse(List<String> stdout) {
    Map<String, ParsedMetric> found = new LinkedHashMap<>();
    String last = null;
    for (String line : stdout) {
      if (!line.isBlank()) {
        last = line.strip();
      }
      Matcher m = LINE.matcher(line);
      if (m.matches()) {
        String unit = m.group(3) == null ? "" : m.group(3);
        found.put(m.group(1), new ParsedMetric(m.group(1), Double.parseDouble(m.group(2)), unit));
      }
    }
    return new MetricsOutput(new ArrayList<>(found.values()), last);
  }

  /** True when at least one metric line was read. */
  public boolean found() {
    return !metrics.isEmpty();
  }

  /**
   * Why the trial fails: nothing was found (naming the parser and the last line it read), or a
   * common metric is negative (a program's clock or counter went wrong, and the figure would enter
   * the cell's statistics); null when the output is usable.
   */
  public String problem() {
    if (!found()) {
      String tail = lastLine == null ? "stdout was empty" : "last line read: \"" + lastLine + "\"";
      return "parser metrics found no NAME VALUE [UNIT] line; " + tail;
    }
    for (ParsedMetric m : metrics) {
      if (NEVER_NEGATIVE.contains(m.name()) && m.value() < 0) {
        return "parser metrics read "
            + m.name()
            + " "
            + BigDecimal.valueOf(m.value()).stripTrailingZeros().toPlainString()
            + ", which cannot be negative";
      }
    }
    return null;
  }
}
