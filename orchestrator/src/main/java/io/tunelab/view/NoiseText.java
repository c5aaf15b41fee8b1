package io.tunelab.view;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The noise checks as {@code hosts check --benchmark} prints them: a table, or JSON. */
public final class NoiseText {
  private NoiseText() {}

  /** One check on one host: {@code ok} or not, what it saw and the command that fixes it. */
  public record Check(String host, String check, boolean ok, String detail, String fix) {
    String status() {
      return ok ? "ok" : "warn";
    }
  }

  /** A table, or JSON. */
  public static String of(List<Check> checks, boolean json) {
    if (json) {
      List<Map<String, Object>> doc = new ArrayList<>();
      for (Check c : checks) {
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
    for (Check c : checks) {
      out.append(String.format(format, c.host(), c.check(), c.status(), c.detail()));
      if (!c.ok()) {
        out.append(String.format(format, "", "", "", "fix: " + c.fix()));
      }
    }
    return out.toString();
  }
}
