package io.tunelab.report;

import io.tunelab.report.Comparison.Aggregate;
import io.tunelab.report.Comparison.Row;
import io.tunelab.report.Table.Absent;
import io.tunelab.report.Table.Block;
import io.tunelab.report.Table.Measure;
import io.tunelab.report.Table.Text;
import io.tunelab.report.Table.Value;
import io.tunelab.stats.Direction;
import io.tunelab.stats.Verdict;
import io.tunelab.store.ReportData.Stat;
import java.util.ArrayList;
import java.util.List;

/** Fixed-width plain text, fit for a mailing list: reports and comparisons. */
final class TextOutput {
  /** The columns of a comparison's table, in every format. */
  static final List<String> COMPARISON_COLUMNS =
      List.of("base", "%change", "95% CI", "new", "", "verdict", "p", "n", "label");

  /** Which of {@link #COMPARISON_COLUMNS} are right-aligned. */
  static final List<Boolean> COMPARISON_RIGHT =
      List.of(true, true, false, true, false, false, true, true, false);

  private TextOutput() {}

  static String report(Report r) {
    StringBuilder out = new StringBuilder();
    out.append(r.headline()).append('\n');
    for (String line : r.preamble()) {
      out.append(line).append('\n');
    }
    if (r.search() != null) {
      out.append('\n').append(search(r.search())).append('\n');
    }
    if (r.legend() != null) {
      out.append(r.legend()).append('\n');
    }
    Table t = r.table();
    List<String> header = t.columns().stream().map(Table.Column::name).toList();
    boolean[] right = new boolean[header.size()];
    int[] width = new int[header.size()];
    for (int i = 0; i < width.length; i++) {
      right[i] = t.columns().get(i).right();
      width[i] = header.get(i).length();
    }
    List<List<List<String>>> shown = new ArrayList<>();
    for (Block block : t.blocks()) {
      List<List<String>> rows = new ArrayList<>(block.rows().size());
      for (List<Value> row : block.rows()) {
        List<String> text = new ArrayList<>(row.size());
        for (int i = 0; i < width.length; i++) {
          text.add(shown(row.get(i)));
          width[i] = Math.max(width[i], text.get(i).length());
        }
        rows.add(text);
      }
      shown.add(rows);
    }
    String groups = groupLine(t.columns(), width);
    for (int b = 0; b < t.blocks().size(); b++) {
      out.append('\n');
      String title = t.blocks().get(b).title();
      if (!title.isEmpty()) {
        out.append(title).append('\n');
      }
      out.append(groups);
      out.append(line(header, width, right));
      for (List<String> row : shown.get(b)) {
        out.append(line(row, width, right));
      }
    }
    if (!r.boots().isEmpty()) {
      out.append('\n').append(r.bootsHeading()).append(":\n");
      for (BootSpread b : r.boots()) {
        out.append("  ").append(b.text()).append('\n');
      }
    }
    if (!r.failures().isEmpty()) {
      out.append("\nfailed trials:\n");
      for (String l : r.failures()) {
        out.append("  ").append(l).append('\n');
      }
    }
    for (Report.WarningSection w : r.warningSections("  ")) {
      out.append("\nwarnings about ").append(String.join(", ", w.about())).append(":\n");
      for (String l : w.lines()) {
        out.append(l).append('\n');
      }
    }
    if (r.unfinished() != null) {
      out.append('\n').append(r.unfinished()).append('\n');
    }
    return out.toString();
  }

  /** A search's section: its summary, then each part's heading and table or lines. */
  static String search(SearchSection s) {
    StringBuilder out = new StringBuilder();
    for (String line : SearchLines.summary(s)) {
      out.append(line).append('\n');
    }
    for (SearchLines.Part p : SearchLines.parts(s)) {
      out.append('\n').append(p.heading()).append(":\n");
      if (!p.isTable()) {
        for (String l : p.lines()) {
          out.append("  ").append(l).append('\n');
        }
        continue;
      }
      int[] width = new int[p.header().size()];
      boolean[] right = new boolean[width.length];
      for (int i = 0; i < width.length; i++) {
        width[i] = p.header().get(i).length();
        right[i] = p.right().get(i);
        for (List<String> row : p.rows()) {
          width[i] = Math.max(width[i], row.get(i).length());
        }
      }
      out.append("  ").append(line(p.header(), width, right));
      for (List<String> row : p.rows()) {
        out.append("  ").append(line(row, width, right));
      }
      out.append("  ").append(p.note()).append('\n');
    }
    return out.toString();
  }

  static String comparison(Comparison c) {
    StringBuilder out = new StringBuilder();
    for (String line : heading(c)) {
      out.append(line).append('\n');
    }
    out.append('\n');
    List<String> header = COMPARISON_COLUMNS;
    boolean[] right = new boolean[header.size()];
    for (int i = 0; i < right.length; i++) {
      right[i] = COMPARISON_RIGHT.get(i);
    }
    List<List<String>> rows = new ArrayList<>();
    for (Comparison.Line l : c.lines()) {
      rows.add(TextOutput.comparisonCells(l));
    }
    List<List<String>> summary = new ArrayList<>();
    summary.add(aggregate(c.total(), c.rows().size(), "TOTAL"));
    summary.add(aggregate(c.geomean(), c.rows().size(), "geomean"));
    int[] width = new int[header.size()];
    for (int i = 0; i < width.length; i++) {
      width[i] = header.get(i).length();
      for (List<String> row : rows) {
        width[i] = Math.max(width[i], row.get(i).length());
      }
      for (List<String> row : summary) {
        width[i] = Math.max(width[i], row.get(i).length());
      }
    }
    out.append(line(header, width, right));
    out.append(rule(width));
    for (List<String> row : rows) {
      out.append(line(row, width, right));
    }
    out.append(rule(width));
    for (List<String> row : summary) {
      out.append(line(row, width, right));
    }
    if (c.gaps() > 0) {
      out.append(gapNote(c)).append('\n');
    }
    List<String> boots = bootLines(c);
    if (!boots.isEmpty()) {
      out.append('\n');
      for (String line : boots) {
        out.append(line).append('\n');
      }
    }
    out.append('\n');
    for (String line : footer(c)) {
      out.append(line).append('\n');
    }
    return out.toString();
  }

  /** What is compared with what, and how: the lines above a comparison. */
  static List<String> heading(Comparison c) {
    List<String> lines = new ArrayList<>();
    lines.add(
        "base: " + c.base().name() + (c.base().detail().isEmpty() ? "" : "; " + c.base().detail()));
    lines.add(
        "new:  " + c.next().name() + (c.next().detail().isEmpty() ? "" : "; " + c.next().detail()));
    for (Comparison.Difference d : c.differences()) {
      lines.add(d.text());
    }
    for (String host : c.cmdlineHosts()) {
      cmdlines(lines, host, "base: ", c.base());
      cmdlines(lines, host, "new:  ", c.next());
    }
    lines.add(
        "metric: "
            + c.metric()
            + (c.unit() == null ? "" : " (" + c.unit() + ")")
            + ", "
            + c.direction().text()
            + "; job "
            + c.job()
            + "; ±: population standard deviation in % of the mean");
    lines.addAll(testLegend(c));
    lines.add(
        "verdict: "
            + (c.direction() == Direction.UNKNOWN ? "changed" : "better or worse")
            + " when * and |%change| >= "
            + Numbers.exact(c.options().minChange())
            + "% (--min-change), else same; n<3 = too few repetitions to test");
    return lines;
  }

  /** What the marker, p and the intervals are: the test, pairing and stopping rule they reflect. */
  static List<String> testLegend(Comparison c) {
    List<String> lines = new ArrayList<>();
    lines.add(
        "* = "
            + (c.paired() ? "paired t-test of the rounds' log ratios" : c.options().test().title())
            + " p < "
            + Numbers.exact(c.options().alpha())
            + " with n >= 3 on both sides"
            + (c.paired() ? " (Welch's t-test for a row with fewer than 2 rounds in common)" : "")
            + "; ~ = not significant");
    lines.add(
        "95% CI: of the %change, "
            + (c.paired()
                ? "from the rounds' paired log ratios"
                : "on the log ratio of the means (Welch-Satterthwaite)")
            + "; TOTAL and geomean by the delta method"
            + (c.paired() ? ", paired rows by their rounds" : "")
            + (c.bootsAsUnit()
                ? "; a row whose sides ran on 2 boots or more each: of its per-boot means (boots as"
                    + " the unit, its test too)"
                : ""));
    List<String> adaptive = new ArrayList<>();
    if (adaptive(c.base())) {
      adaptive.add("base");
    }
    if (adaptive(c.next()) && c.next().data() != c.base().data()) {
      adaptive.add("new");
    }
    if (!adaptive.isEmpty()) {
      int min = (adaptive(c.base()) ? c.base() : c.next()).data().repetitions().rule().min();
      lines.add(
          "adaptive repetitions ("
              + String.join(", ", adaptive)
              + "): each cell's variance is the larger of its pilot's (first "
              + min
              + ") and all its values', with the pilot's degrees of freedom (two-stage)");
    }
    return lines;
  }

  private static boolean adaptive(Comparison.Side s) {
    return s.data().repetitions() != null && s.data().repetitions().rule().adaptive();
  }

  private static void cmdlines(List<String> lines, String host, String side, Comparison.Side s) {
    List<String> booted = s.cmdlines().getOrDefault(host, List.of());
    if (booted.isEmpty()) {
      lines.add("cmdline " + host + " " + side + "(not recorded)");
    }
    for (String cmdline : booted) {
      lines.add("cmdline " + host + " " + side + cmdline);
    }
  }

  /**
   * The two levels of the rows with boots as the unit, a heading and one indented line a row; none
   * when trials are every row's unit.
   */
  static List<String> bootLines(Comparison c) {
    List<String> lines = new ArrayList<>();
    if (!c.bootsAsUnit()) {
      return lines;
    }
    lines.add(
        "boots as the unit: between-boot sd = of the per-boot means, within-boot sd = of the"
            + " trials around their boot's mean, in % of the mean (Kalibera & Jones):");
    for (Row r : c.rows()) {
      if (r.boots() != null) {
        lines.add("  " + r.label() + ": " + r.boots().text());
      }
    }
    return lines;
  }

  /** The note under a table with dashes: what they mean and that the sums leave them out. */
  static String gapNote(Comparison c) {
    int n = c.gaps();
    return "-: no ok trial with "
        + c.metric()
        + " on that side; "
        + (n == 1 ? "1 row" : n + " rows")
        + " left out of TOTAL and geomean";
  }

  /** The verdicts, the changed rows by name, and the warnings: the lines below a comparison. */
  static List<String> footer(Comparison c) {
    List<String> lines = new ArrayList<>();
    List<String> parts = new ArrayList<>();
    c.verdicts()
        .forEach(
            (verdict, n) -> {
              if (n > 0) {
                parts.add(n + " " + verdict.text());
              }
            });
    lines.add(
        c.rows().size() + (c.rows().size() == 1 ? " row: " : " rows: ") + String.join(", ", parts));
    for (Verdict verdict : List.of(Verdict.WORSE, Verdict.BETTER, Verdict.CHANGED)) {
      List<Row> of = c.rows().stream().filter(r -> r.verdict() == verdict).toList();
      if (of.isEmpty()) {
        continue;
      }
      lines.add(verdict.text() + ":");
      for (Row r : of) {
        lines.add(
            "  "
                + Numbers.percent(r.change())
                + "  "
                + r.label()
                + "  (p "
                + Numbers.p(r.p())
                + ")");
      }
    }
    List<String> warnings = warnings(c);
    if (!warnings.isEmpty()) {
      lines.add("warnings:");
      lines.addAll(warnings);
    }
    return lines;
  }

  /** The warnings of a comparison, indented by two spaces. */
  static List<String> warnings(Comparison c) {
    List<String> lines = new ArrayList<>();
    listed(lines, "only in the base", c.onlyInBase());
    listed(lines, "only in the new side", c.onlyInNew());
    if (!c.baseWarnings().isEmpty()) {
      lines.add("  base:");
      lines.addAll(c.baseWarnings().lines("    "));
    }
    if (!c.newWarnings().isEmpty()) {
      lines.add("  new:");
      lines.addAll(c.newWarnings().lines("    "));
    }
    return lines;
  }

  private static void listed(List<String> lines, String what, List<String> labels) {
    if (labels.isEmpty()) {
      return;
    }
    lines.add("  " + what + ", " + labels.size() + (labels.size() == 1 ? " cell:" : " cells:"));
    for (String l : labels.subList(0, Math.min(labels.size(), Warnings.SHOWN_PER_KIND))) {
      lines.add("    " + l);
    }
    if (labels.size() > Warnings.SHOWN_PER_KIND) {
      lines.add("    … and " + (labels.size() - Warnings.SHOWN_PER_KIND) + " more");
    }
  }

  /**
   * A TOTAL or geomean row's cells, in the columns of {@link #comparisonCells}: without a verdict,
   * since neither has repetitions of its own to test.
   */
  static List<String> aggregate(Aggregate a, int rows, String label) {
    return List.of(
        Double.isNaN(a.base()) ? "-" : Numbers.fixed(a.base()),
        Numbers.percent(a.change()),
        Numbers.interval(a.interval()),
        Double.isNaN(a.next()) ? "-" : Numbers.fixed(a.next()),
        "",
        "",
        "",
        String.valueOf(rows),
        label);
  }

  /** How a table entry reads in text. */
  static String shown(Value v) {
    if (v instanceof Text t) {
      return t.text();
    }
    if (v instanceof Table.Number n) {
      return Numbers.fixed(n.value());
    }
    if (v instanceof Measure m) {
      return Numbers.fixed(m.mean()) + " " + Numbers.relative(m.std(), m.mean());
    }
    return ((Absent) v).shown();
  }

  /**
   * The line above the header naming each group of columns ({@code ---- writer ----}), or nothing
   * when no column has a group. Widens a group's last column when its heading would not fit.
   */
  private static String groupLine(List<Table.Column> columns, int[] width) {
    if (columns.stream().allMatch(c -> c.group() == null)) {
      return "";
    }
    StringBuilder line = new StringBuilder();
    int i = 0;
    while (i < columns.size()) {
      String group = columns.get(i).group();
      int end = i + 1;
      while (end < columns.size() && group != null && group.equals(columns.get(end).group())) {
        end++;
      }
      int span = 2 * (end - i - 1);
      for (int k = i; k < end; k++) {
        span += width[k];
      }
      if (i > 0) {
        line.append("  ");
      }
      if (group == null) {
        line.append(" ".repeat(span));
      } else {
        int room = group.length() + 4;
        if (span < room) {
          width[end - 1] += room - span;
          span = room;
        }
        int dashes = span - group.length() - 2;
        line.append("-".repeat(dashes / 2))
            .append(' ')
            .append(group)
            .append(' ')
            .append("-".repeat(dashes - dashes / 2));
      }
      i = end;
    }
    return line.toString().stripTrailing() + "\n";
  }

  private static String line(List<String> values, int[] width, boolean[] right) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        line.append("  ");
      }
      String v = values.get(i);
      String pad = " ".repeat(Math.max(0, width[i] - v.length()));
      line.append(right[i] ? pad + v : v + pad);
    }
    return line.toString().stripTrailing() + "\n";
  }

  private static String rule(int[] width) {
    List<String> dashes = new ArrayList<>();
    for (int w : width) {
      dashes.add("-".repeat(w));
    }
    return String.join("  ", dashes).stripTrailing() + "\n";
  }

  /**
   * One line's cells: base ±%, %change, its interval, new ±%, marker, verdict, p, n, label; dashes
   * where unmeasured.
   */
  static List<String> comparisonCells(Comparison.Line line) {
    if (line instanceof Comparison.Gap g) {
      return List.of(
          spread(g.base()),
          "-",
          "-",
          spread(g.next()),
          "",
          "-",
          "-",
          n(g.base()) + "/" + n(g.next()),
          g.label());
    }
    Row r = (Row) line;
    return List.of(
        spread(r.base()),
        Numbers.percent(r.change()),
        Numbers.interval(r.interval()),
        spread(r.next()),
        r.marker(),
        r.verdict().text(),
        Numbers.p(r.p()),
        r.base().n() + "/" + r.next().n(),
        r.label());
  }

  /** {@code 62.668 ±2.3%}: the mean and the population standard deviation in %; - for none. */
  private static String spread(Stat s) {
    return s == null
        ? "-"
        : Numbers.fixed(s.mean()) + " " + Numbers.relative(s.stddevPop(), s.mean());
  }

  private static int n(Stat s) {
    return s == null ? 0 : s.n();
  }
}
