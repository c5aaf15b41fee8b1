package io.tunelab.cli;

import io.tunelab.run.NoiseChecks;
import io.tunelab.view.PrettyJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The noise checks as {@code hosts check --benchmark} prints them: a table, or JSON. */
final class NoiseText {
  private NoiseText() {}

  static String of(List<NoiseChecks.Check> checks, boolean json) {
    if (json) {
      List<Map<String, Object>> doc = new ArrayList<>();
      for (NoiseChecks.Check c : checks) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("host", c.host());
        row.put("check", c.check());
        row.put("status", c.status());
        row.put("detail", c.detail());
        row.put("fix", c.fix());
        doc.add(row);
      }
      return PrettyJson.write(doc);
    }
    int host = Math.max(4, checks.stream().mapToInt(c -> c.host().length()).max().orElse(4));
    String format = "%-" + host + "s  %-10s  %-6s  %s%n";
    StringBuilder out =
        new StringBuilder(String.format(format, "HOST", "CHECK", "STATUS", "DETAIL"));
    for (NoiseChecks.Check c : checks) {
      out.append(String.format(format, c.host(), c.check(), c.status(), c.detail()));
      if (!c.ok()) {
        out.append(String.format(format, "", "", "", "fix: " + c.fix()));
      }
    }
    return out.toString();
  }
}
