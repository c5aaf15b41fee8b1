package io.tunelab.report;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code tunelab compare --html}: the comparison as one self-contained page, to attach to a mail:
 * what is compared, the table of rows with TOTAL and geomean, and the verdicts and warnings.
 */
public final class HtmlComparison {
  private HtmlComparison() {}

  /** The page. */
  public static String render(Comparison c) {
    StringBuilder page = new StringBuilder();
    String title = c.base().name() + " vs " + c.next().name();
    HtmlReport.head(page, "tunelab compare: " + title);
    page.append("<body>\n<h1>").append(Html.escape(title)).append("</h1>\n");
    for (String line : TextOutput.heading(c)) {
      page.append("<p>").append(Html.escape(line)).append("</p>\n");
    }
    List<String> header = TextOutput.COMPARISON_COLUMNS;
    List<Boolean> right = TextOutput.COMPARISON_RIGHT;
    page.append("<table>\n<thead><tr>");
    for (int i = 0; i < header.size(); i++) {
      page.append(right.get(i) ? "<th class=\"num\">" : "<th>")
          .append(Html.escape(header.get(i)))
          .append("</th>");
    }
    page.append("</tr></thead>\n<tbody>\n");
    List<List<String>> rows = new ArrayList<>();
    for (Comparison.Line l : c.lines()) {
      rows.add(TextOutput.comparisonCells(l));
    }
    rows.add(TextOutput.aggregate(c.total(), c.rows().size(), "TOTAL"));
    rows.add(TextOutput.aggregate(c.geomean(), c.rows().size(), "geomean"));
    for (List<String> row : rows) {
      page.append("<tr>");
      for (int i = 0; i < row.size(); i++) {
        page.append(right.get(i) ? "<td class=\"num\">" : "<td>")
            .append(Html.escape(row.get(i)))
            .append("</td>");
      }
      page.append("</tr>\n");
    }
    page.append("</tbody>\n</table>\n");
    if (c.gaps() > 0) {
      page.append("<p class=\"caption\">")
          .append(Html.escape(TextOutput.gapNote(c)))
          .append("</p>\n");
    }
    List<String> boots = TextOutput.bootLines(c);
    if (!boots.isEmpty()) {
      page.append("<pre>");
      for (String line : boots) {
        page.append(Html.escape(line)).append('\n');
      }
      page.append("</pre>\n");
    }
    page.append("<pre>");
    for (String line : TextOutput.footer(c)) {
      page.append(Html.escape(line)).append('\n');
    }
    page.append("</pre>\n</body>\n</html>\n");
    return page.toString();
  }
}
