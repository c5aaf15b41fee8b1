package io.tunelab.matrix;

import io.tunelab.yaml.DocumentException;
import io.tunelab.yaml.Problems;
import io.tunelab.yaml.YamlNode;
import io.tunelab.yaml.YamlReader;
import java.util.regex.Pattern;

/**
 * The {@code workload:} of a stored matrix as one line of YAML flow, as written ({@code dd: {input:
 * /dev/${dev}, output: /dev/null, bs: 1M, total: 256MiB}}): what a shared report says its trials
 * ran.
 */
public final class WorkloadSummary {
  /** Longer summaries end in {@code …}: a report's header is not the place for a job file. */
  public static final int MAX = 240;

  private static final Pattern PLAIN = Pattern.compile("[^,:{}\\[\\]#&*!|>'\"%@`\\s][^,{}\\[\\]]*");

  private WorkloadSummary() {}

  /** The summary, or null when the text has no readable {@code workload:}. */
  public static String of(String matrixText) {
    if (matrixText == null) {
      return null;
    }
    YamlNode root;
    try {
      root =
          new YamlReader("matrix", "in a matrix", new Problems(MatrixException::new))
              .read(matrixText);
    } catch (DocumentException e) {
      return null;
    }
    if (!(root instanceof YamlNode.Mapping top) || top.get("workload") == null) {
      return null;
    }
    StringBuilder out = new StringBuilder();
    YamlNode workload = top.get("workload");
    if (workload instanceof YamlNode.Mapping m) {
      entries(m, out);
    } else {
      flow(workload, out);
    }
    String line = out.toString();
    return line.length() <= MAX ? line : line.substring(0, MAX - 1) + "…";
  }

  private static void entries(YamlNode.Mapping m, StringBuilder out) {
    boolean first = true;
    for (YamlNode.Entry e : m.entries()) {
      if (!first) {
        out.append(", ");
      }
      first = false;
      out.append(scalar(e.key())).append(": ");
      flow(e.value(), out);
    }
  }

  private static void flow(YamlNode node, StringBuilder out) {
    if (node instanceof YamlNode.Scalar s) {
      out.append(s.isNull() ? "null" : scalar(s.text()));
    } else if (node instanceof YamlNode.Sequence s) {
      out.append('[');
      for (int i = 0; i < s.items().size(); i++) {
        if (i > 0) {
          out.append(", ");
        }
        flow(s.items().get(i), out);
      }
      out.append(']');
    } else if (node instanceof YamlNode.Mapping m) {
      out.append('{');
      entries(m, out);
      out.append('}');
    }
  }

  private static String scalar(String text) {
    String oneLine = text.strip().replace('\n', ' ');
    if (!oneLine.isEmpty() && PLAIN.matcher(oneLine).matches() && !oneLine.contains(": ")) {
      return oneLine;
    }
    return "\"" + oneLine.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
