package io.tunelab.report;

import io.tunelab.report.BarChart.Bar;
import io.tunelab.report.Table.Block;
import io.tunelab.report.Table.Value;
import io.tunelab.stats.Direction;
import io.tunelab.stats.Interval;
import io.tunelab.store.ReportData;
import io.tunelab.store.ReportData.Cell;
import io.tunelab.store.ReportData.Stat;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code tunelab report --html}: one self-contained page (no network, no external script, style or
 * font) with SVG bar charts of the reported metric, grouped by one axis, and the report's tables. A
 * small inline script checks that every chart rendered and records the outcome in {@code
 * document.title} and the {@code data-tunelab-check} attribute of the body, which tests read back.
 */
public final class HtmlReport {
  /** At most this many series (colours) share one chart; more axes split into more charts. */
  public static final int MAX_SERIES = 8;

  /** At most this many charts on one page; the tables still show every cell. */
  public static final int MAX_CHARTS = 60;

  private HtmlReport() {}

  /**
   * The page. {@code groupAxis} (as written or its short name; null for the last axis) gives the
   * clusters of bars; the other axes give the colours, and when they would need more than {@link
   * #MAX_SERIES}, separate charts.
   */
  public static String render(Report report, String groupAxis) {
    ReportData data = report.data();
    Charts drawn = charts(report, groupAxis);
    List<BarChart> charts = drawn.shown();
    StringBuilder page = new StringBuilder();
    head(page, "tunelab report: " + data.name());
    page.append("<body data-tunelab-check=\"pending\" data-charts=\"")
        .append(charts.size())
        .append("\">\n");
    page.append("<h1>").append(Html.escape(data.name())).append("</h1>\n");
    page.append("<p class=\"headline\">").append(Html.escape(report.headline())).append("</p>\n");
    for (String line : report.preamble()) {
      page.append("<p>").append(Html.escape(line)).append("</p>\n");
    }
    if (report.unfinished() != null) {
      page.append("<p class=\"unfinished\">")
          .append(Html.escape(report.unfinished()))
          .append("</p>\n");
    }
    if (report.search() != null) {
      search(page, report.search());
    }
    page.append("<section id=\"charts\">\n");
    if (charts.isEmpty()) {
      page.append("<p>Nothing measured yet: no charts.</p>\n");
    }
    for (BarChart chart : charts) {
      page.append("<figure>\n").append(chart.svg()).append("</figure>\n");
    }
    if (drawn.total() > charts.size()) {
      page.append("<p class=\"caption\">Showing the first ")
          .append(charts.size())
          .append(" of ")
          .append(drawn.total())
          .append(" charts; --group, --metric or a smaller experiment give fewer.</p>\n");
    }
    if (!charts.isEmpty()) {
      page.append("<p class=\"caption\">").append(Html.escape(caption(report))).append("</p>\n");
    }
    page.append("</section>\n<section id=\"tables\">\n<h2>Tables</h2>\n");
    if (report.legend() != null) {
      page.append("<p>").append(Html.escape(report.legend())).append("</p>\n");
    }
    tables(page, report.table());
    notes(page, report);
    page.append("</section>\n<script>\n").append(CHECK).append("</script>\n</body>\n</html>\n");
    return page.toString();
  }

  /**
   * A search's section: its summary, the best so far as a chart and a table, the eliminated
   * candidates and which axes mattered.
   */
  private static void search(StringBuilder page, SearchSection s) {
    page.append("<section id=\"search\">\n<h2>Search</h2>\n");
    for (String line : SearchLines.summary(s)) {
      page.append("<p>").append(Html.escape(line)).append("</p>\n");
    }
    if (!s.bestSoFar().isEmpty()) {
      String metric = s.objective().substring(s.objective().indexOf(' ') + 1);
      page.append("<figure>\n")
          .append(
              new ProgressChart(
                      "best so far: " + s.objective(),
                      metric + (s.unit() == null ? "" : " (" + s.unit() + ")"),
                      s.bestSoFar())
                  .svg())
          .append("</figure>\n");
    }
    for (SearchLines.Part p : SearchLines.parts(s)) {
      page.append("<h3>").append(Html.escape(p.heading())).append("</h3>\n");
      if (!p.isTable()) {
        page.append("<ul>\n");
        for (String l : p.lines()) {
          page.append("<li>").append(Html.escape(l)).append("</li>\n");
        }
        page.append("</ul>\n");
        continue;
      }
      page.append("<table>\n<thead><tr>");
      for (int i = 0; i < p.header().size(); i++) {
        page.append(p.right().get(i) ? "<th class=\"num\">" : "<th>")
            .append(Html.escape(p.header().get(i)))
            .append("</th>");
      }
      page.append("</tr></thead>\n<tbody>\n");
      for (List<String> row : p.rows()) {
        page.append("<tr>");
        for (int i = 0; i < row.size(); i++) {
          page.append(p.right().get(i) ? "<td class=\"num\">" : "<td>")
              .append(Html.escape(row.get(i)))
              .append("</td>");
        }
        page.append("</tr>\n");
      }
      page.append("</tbody>\n</table>\n");
      page.append("<p class=\"caption\">").append(Html.escape(p.note())).append("</p>\n");
    }
    page.append("</section>\n");
  }

  private static String caption(Report r) {
    String unit = r.unit() == null ? "" : " in " + r.unit();
    return "Bars: mean "
        + r.metric()
        + unit
        + " over the ok repetitions (warm-ups left out); error bars: ± population standard"
        + " deviation; grey bands: 95 % confidence interval of the mean (n >= 2); dots: the"
        + " repetitions; "
        + Direction.of(r.metric()).text()
        + ".";
  }

  /** The charts shown, and how many there would be without {@link #MAX_CHARTS}. */
  record Charts(List<BarChart> shown, int total) {}

  /** The charts: one per combination of the axes that do not fit as colours. */
  static Charts charts(Report report, String groupAxis) {
    ReportData data = report.data();
    String metric = report.metric();
    if (metric == null || data.cells().stream().noneMatch(c -> c.stats().containsKey(metric))) {
      return new Charts(List.of(), 0);
    }
    AxisNames axes = report.axes();
    List<String> all = data.paramNames();
    String where = "experiment " + data.experimentId() + " (" + data.name() + ")";
    String group =
        groupAxis != null
            ? axes.resolve(groupAxis, where)
            : all.isEmpty() ? null : all.get(all.size() - 1);
    List<String> constant = new ArrayList<>();
    List<String> others = new ArrayList<>();
    for (String axis : all) {
      if (axis.equals(group)) {
        continue;
      }
      (distinct(data, axis).size() == 1 ? constant : others).add(axis);
    }
    int split = others.size();
    while (split > 0
        && combinations(data, others.subList(split - 1, others.size())) <= MAX_SERIES) {
      split--;
    }
    List<String> panelAxes = others.subList(0, split);
    List<String> seriesAxes = others.subList(split, others.size());
    List<String> groups = group == null ? List.of("(all)") : distinct(data, group);

    Map<String, List<Cell>> panels = new LinkedHashMap<>();
    for (Cell c : data.cells()) {
      panels.computeIfAbsent(axes.label(c.params(), panelAxes), k -> new ArrayList<>()).add(c);
    }
    String constants = axes.label(constantParams(data, constant), constant);
    String unit = data.unit(metric);
    String yLabel = metric + (unit == null ? "" : " (" + unit + ")");
    List<BarChart> charts = new ArrayList<>();
    for (Map.Entry<String, List<Cell>> panel : panels.entrySet()) {
      if (charts.size() == MAX_CHARTS) {
        break;
      }
      Map<String, Map<String, Bar>> bySeries = new LinkedHashMap<>();
      for (Cell c : panel.getValue()) {
        String series = seriesAxes.isEmpty() ? metric : axes.label(c.params(), seriesAxes);
        String at = group == null ? "(all)" : c.params().getOrDefault(group, "-");
        Stat s = c.stats().get(metric);
        Map<String, Bar> bars = bySeries.computeIfAbsent(series, k -> new LinkedHashMap<>());
        if (s != null) {
          Interval ci = s.summary().meanInterval(0.95);
          List<Double> points = new ArrayList<>();
          for (double v : c.values(metric)) {
            points.add(v);
          }
          bars.put(
              at,
              new Bar(
                  s.mean(),
                  s.stddevPop(),
                  s.n(),
                  c.label()
                      + ": "
                      + Numbers.fixed(s.mean())
                      + " ± "
                      + Numbers.fixed(s.stddevPop())
                      + (unit == null ? "" : " " + unit)
                      + " (n = "
                      + s.n()
                      + (ci.known()
                          ? "; 95 % CI "
                              + Numbers.fixed(ci.low())
                              + " to "
                              + Numbers.fixed(ci.high())
                          : "")
                      + ")",
                  ci.low(),
                  ci.high(),
                  points));
        }
      }
      List<String> series = List.copyOf(bySeries.keySet());
      List<List<Bar>> values = new ArrayList<>();
      for (String s : series) {
        List<Bar> row = new ArrayList<>();
        for (String g : groups) {
          row.add(bySeries.get(s).get(g));
        }
        values.add(row);
      }
      List<String> title = new ArrayList<>();
      title.add(data.name());
      if (!panel.getKey().isEmpty()) {
        title.add(panel.getKey());
      }
      if (!constants.isEmpty()) {
        title.add(constants);
      }
      charts.add(
          new BarChart(
              String.join("  ·  ", title),
              yLabel,
              group == null ? "" : axes.shown(group),
              groups,
              series,
              values));
    }
    return new Charts(charts, panels.size());
  }

  private static Map<String, String> constantParams(ReportData data, List<String> constant) {
    Map<String, String> values = new LinkedHashMap<>();
    for (String axis : constant) {
      values.put(axis, distinct(data, axis).get(0));
    }
    return values;
  }

  private static int combinations(ReportData data, List<String> axes) {
    Set<String> seen = new LinkedHashSet<>();
    AxisNames names = new AxisNames(data.paramNames());
    for (Cell c : data.cells()) {
      seen.add(names.label(c.params(), axes));
    }
    return seen.size();
  }

  private static List<String> distinct(ReportData data, String axis) {
    Set<String> values = new LinkedHashSet<>();
    for (Cell c : data.cells()) {
      values.add(c.params().getOrDefault(axis, "-"));
    }
    return List.copyOf(values);
  }

  private static void tables(StringBuilder page, Table t) {
    for (Block block : t.blocks()) {
      if (!block.title().isEmpty()) {
        page.append("<h3>").append(Html.escape(block.title())).append("</h3>\n");
      }
      page.append("<table>\n<thead><tr>");
      for (Table.Column c : t.columns()) {
        page.append(c.right() ? "<th class=\"num\">" : "<th>")
            .append(Html.escape(c.name()))
            .append("</th>");
      }
      page.append("</tr></thead>\n<tbody>\n");
      for (List<Value> row : block.rows()) {
        page.append("<tr>");
        for (int i = 0; i < row.size(); i++) {
          page.append(t.columns().get(i).right() ? "<td class=\"num\">" : "<td>")
              .append(Html.escape(TextOutput.shown(row.get(i))))
              .append("</td>");
        }
        page.append("</tr>\n");
      }
      page.append("</tbody>\n</table>\n");
    }
  }

  private static void notes(StringBuilder page, Report r) {
    if (!r.boots().isEmpty()) {
      page.append("<h2>").append(Html.escape(r.bootsHeading())).append("</h2>\n<ul>\n");
      for (BootSpread b : r.boots()) {
        page.append("<li>").append(Html.escape(b.text())).append("</li>\n");
      }
      page.append("</ul>\n");
    }
    if (!r.failures().isEmpty()) {
      page.append("<h2>Failed trials</h2>\n<ul>\n");
      for (String f : r.failures()) {
        page.append("<li>").append(Html.escape(f)).append("</li>\n");
      }
      page.append("</ul>\n");
    }
    if (!r.warnings().isEmpty()) {
      page.append("<h2>Warnings about ").append(Html.escape(r.metric())).append("</h2>\n<pre>");
      for (String line : r.warnings().lines("")) {
        page.append(Html.escape(line)).append('\n');
      }
      page.append("</pre>\n");
    }
  }

  /** The page's start up to its body: self-contained, titled {@code title}, with the style. */
  static void head(StringBuilder page, String title) {
    page.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    // Nothing may load from anywhere: the page works from a mail attachment or an air-gapped lab.
    page.append(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"
            + " style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n");
    page.append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    page.append("<title>").append(Html.escape(title)).append("</title>\n");
    page.append("<style>\n").append(STYLE).append("</style>\n</head>\n");
  }

  private static final String STYLE =
      """
      body { font-family: sans-serif; margin: 1.5em; color: #222; background: #fff; }
      h1 { font-size: 1.4em; margin: 0 0 .3em; }
      h2 { font-size: 1.15em; margin-top: 1.5em; }
      h3 { font-size: 1em; margin: 1.2em 0 .3em; }
      p { margin: .3em 0; }
      .headline { font-weight: bold; }
      .unfinished { color: #a40; }
      figure { margin: 1em 0; }
      svg.tunelab-chart, svg.tunelab-progress { max-width: 100%; height: auto; display: block; }
      svg text { font-family: sans-serif; font-size: 13px; fill: #222; }
      svg text.title { font-size: 15px; font-weight: bold; }
      svg text.tick, svg text.group { font-size: 12px; }
      svg text.count { font-size: 11px; fill: #a40; }
      svg line.grid { stroke: #ddd; stroke-width: 1; }
      svg line.axis { stroke: #444; stroke-width: 1; }
      svg path.error { stroke: #222; stroke-width: 1.5; fill: none; }
      svg rect.ci { fill: #888; fill-opacity: .55; }
      svg circle.point { fill: #222; stroke: #fff; stroke-width: 1; }
      svg path.best { stroke: #0072B2; stroke-width: 2; fill: none; }
      svg circle.best { fill: #D55E00; stroke: #fff; stroke-width: 1; }
      .caption { font-size: .9em; color: #555; }
      table { border-collapse: collapse; font-family: monospace; font-size: 13px; }
      th, td { padding: 2px 10px; border-bottom: 1px solid #eee; text-align: left; }
      th.num, td.num { text-align: right; }
      pre { font-size: 13px; }
      """;

  // Runs after the page is laid out: counts the charts and the bars that have a size.
  private static final String CHECK =
"""
(function () {
  var body = document.body;
  var failed = false;
  function fail(message) {
    failed = true;
    body.setAttribute('data-tunelab-check', 'error: ' + message);
    document.title = 'tunelab report: error: ' + message;
  }
  window.onerror = function (message) { fail(String(message)); };
  try {
    var expected = Number(body.getAttribute('data-charts'));
    var charts = document.querySelectorAll('svg.tunelab-chart');
    if (charts.length !== expected) {
      throw new Error('expected ' + expected + ' charts, found ' + charts.length);
    }
    var bars = 0;
    for (var i = 0; i < charts.length; i++) {
      var box = charts[i].getBoundingClientRect();
      if (!(box.width > 0 && box.height > 0)) {
        throw new Error('chart ' + (i + 1) + ' has no size');
      }
      var rects = charts[i].querySelectorAll('rect.bar');
      for (var j = 0; j < rects.length; j++) {
        var b = rects[j].getBBox();
        if (b.width > 0 && b.height > 0) {
          bars++;
        }
      }
    }
    if (expected > 0 && bars === 0) {
      throw new Error('no bar has a size');
    }
    if (!failed) {
      body.setAttribute('data-tunelab-check', 'ok: ' + charts.length + ' charts, ' + bars + ' bars');
      document.title = document.title + ' (' + charts.length + ' charts checked)';
    }
  } catch (e) {
    fail(e.message);
  }
})();
""";
}
