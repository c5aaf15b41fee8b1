package io.tunelab.report;

import io.tunelab.report.Table.Block;
import io.tunelab.report.Table.Value;
import java.util.ArrayList;
import java.util.List;

/** GitHub-flavoured Markdown: what the text shows, as paragraphs, tables and lists. */
final class MarkdownOutput {
  private MarkdownOutput() {}

  static String report(Report r) {
    StringBuilder out = new StringBuilder();
    out.append(escape(r.headline())).append("\n\n");
    for (String line : r.preamble()) {
      out.append(escape(line)).append("\n\n");
    }
    if (r.search() != null) {
      search(out, r.search());
    }
    if (r.legend() != null) {
      out.append(escape(r.legend())).append("\n\n");
    }
    Table t = r.table();
    List<String> header = t.columns().stream().map(Table.Column::flatName).toList();
    List<Boolean> right = t.columns().stream().map(Table.Column::right).toList();
    for (Block block : t.blocks()) {
      if (!block.title().isEmpty()) {
        out.append("**").append(escape(block.title())).append("**\n\n");
      }
      List<List<String>> rows = new ArrayList<>();
      for (List<Value> row : block.rows()) {
        rows.add(row.stream().map(TextOutput::shown).toList());
      }
      table(out, header, right, rows);
      out.append('\n');
    }
    if (!r.boots().isEmpty()) {
      out.append(escape(r.bootsHeading())).append(":\n\n");
      for (BootSpread b : r.boots()) {
        out.append("- ").append(escape(b.text())).append('\n');
      }
      out.append('\n');
    }
    if (!r.failures().isEmpty()) {
      out.append("failed trials:\n\n");
      for (String l : r.failures()) {
        out.append("- ").append(escape(l)).append('\n');
      }
      out.append('\n');
    }
    for (Report.WarningSection w : r.warningSections("")) {
      out.append("warnings about ").append(escape(String.join(", ", w.about()))).append(":\n\n");
      list(out, w.lines());
      out.append('\n');
    }
    if (r.unfinished() != null) {
      out.append(escape(r.unfinished())).append("\n\n");
    }
    return out.toString().stripTrailing() + "\n";
  }

  /** A search's section: its summary as a list, then each part's heading and table or list. */
  private static void search(StringBuilder out, SearchSection s) {
    list(out, SearchLines.summary(s));
    out.append('\n');
    for (SearchLines.Part p : SearchLines.parts(s)) {
      out.append(escape(p.heading())).append(":\n\n");
      if (p.isTable()) {
        table(out, p.header(), p.right(), p.rows());
        out.append('\n').append(escape(p.note())).append('\n');
      } else {
        list(out, p.lines());
      }
      out.append('\n');
    }
  }

  static String comparison(Comparison c) {
    StringBuilder out = new StringBuilder();
    for (String line : TextOutput.heading(c)) {
      out.append("- ").append(escape(line)).append('\n');
    }
    out.append('\n');
    List<String> header = TextOutput.COMPARISON_COLUMNS;
    List<Boolean> right = TextOutput.COMPARISON_RIGHT;
    List<List<String>> rows = new ArrayList<>();
    for (Comparison.Line l : c.lines()) {
      rows.add(TextOutput.comparisonCells(l));
    }
    rows.add(TextOutput.aggregate(c.total(), c.rows().size(), "**TOTAL**"));
    rows.add(TextOutput.aggregate(c.geomean(), c.rows().size(), "**geomean**"));
    table(out, header, right, rows);
    out.append('\n');
    if (c.gaps() > 0) {
      out.append(escape(TextOutput.gapNote(c))).append("\n\n");
    }
    List<String> boots = TextOutput.bootLines(c);
    if (!boots.isEmpty()) {
      out.append(escape(boots.get(0))).append("\n\n");
      list(out, boots.subList(1, boots.size()).stream().map(String::strip).toList());
      out.append('\n');
    }
    List<String> footer = TextOutput.footer(c);
    out.append(escape(footer.get(0))).append("\n\n");
    list(out, footer.subList(1, footer.size()));
    return out.toString().stripTrailing() + "\n";
  }

  private static void table(
      StringBuilder out, List<String> header, List<Boolean> right, List<List<String>> rows) {
    out.append('|');
    for (String h : header) {
      out.append(' ').append(escape(h)).append(" |");
    }
    out.append("\n|");
    for (boolean r : right) {
      out.append(r ? " ---: |" : " --- |");
    }
    out.append('\n');
    for (List<String> row : rows) {
      out.append('|');
      for (String v : row) {
        // The bold of TOTAL and geomean is ours; everything else is data.
        String cell = v.startsWith("**") ? v : escape(v);
        out.append(' ').append(cell).append(" |");
      }
      out.append('\n');
    }
  }

  // Indented text lines become a nested list: two spaces of indent per level.
  private static void list(StringBuilder out, List<String> lines) {
    for (String line : lines) {
      int indent = line.length() - line.stripLeading().length();
      out.append("  ".repeat(indent / 2)).append("- ").append(escape(line.strip())).append('\n');
    }
  }

  /** Escapes what Markdown would read as markup in a table or a list: {@code \\ | *}. */
  static String escape(String s) {
    return s.replace("\\", "\\\\").replace("|", "\\|").replace("*", "\\*");
  }
}
