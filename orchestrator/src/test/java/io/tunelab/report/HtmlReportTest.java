package io.tunelab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.stats.Summary;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.ReportData;
import io.tunelab.store.ReportData.Cell;
import io.tunelab.store.ReportData.Stat;
import io.tunelab.store.ReportData.Trial;
import io.tunelab.store.TrialCounts;
import io.tunelab.store.TrialStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The HTML page without a browser: self-contained, escaped, charts split sensibly. */
class HtmlReportTest {
  /** A full cross of the axes (name, number of values) with made-up MiB/s. */
  private static ReportData cross(Object... axes) {
    List<String> names = new ArrayList<>();
    List<Integer> sizes = new ArrayList<>();
    for (int i = 0; i < axes.length; i += 2) {
      names.add((String) axes[i]);
      sizes.add((Integer) axes[i + 1]);
    }
    int total = sizes.stream().reduce(1, (a, b) -> a * b);
    List<Cell> cells = new ArrayList<>();
    for (int c = 0; c < total; c++) {
      Map<String, String> params = new LinkedHashMap<>();
      int rest = c;
      for (int a = names.size() - 1; a >= 0; a--) {
        params.put(
            names.get(a),
            names.get(a).equals("case")
                ? "<b>" + rest % sizes.get(a) + "&"
                : "v" + rest % sizes.get(a));
        rest /= sizes.get(a);
      }
      Map<String, String> ordered = new LinkedHashMap<>();
      names.forEach(n -> ordered.put(n, params.get(n)));
      double[] values = {100 + c, 101 + c, 99 + c};
      List<Trial> trials = new ArrayList<>();
      for (int r = 0; r < 3; r++) {
        trials.add(
            new Trial(
                r + 1,
                false,
                TrialStatus.OK,
                null,
                Map.of("mib_per_s", values[r], "seconds", 1.0)));
      }
      cells.add(
          new Cell(
              c + 1,
              "cell" + c,
              ordered,
              trials,
              Map.of("mib_per_s", new Stat("MiB/s", Summary.of(values)))));
    }
    return ReportData.builder(1, "study <1>")
        .status(ExperimentStatus.FINISHED)
        .counts(new TrialCounts(total * 3, 0, 0, 0, 0))
        .job("all", List.of("all"))
        .units(Map.of("mib_per_s", "MiB/s"))
        .paramNames(names)
        .cells(cells)
        .build();
  }

  private static String page(ReportData data, String group) {
    return HtmlReport.render(Report.build(data, Report.Options.CLASSIC), group);
  }

  private static int count(String text, String what) {
    Matcher m = Pattern.compile(Pattern.quote(what)).matcher(text);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }

  @Test
  void nothingLoadsFromAnywhere() {
    String html = page(cross("case", 2, "bs", 3), null);

    assertTrue(html.contains("Content-Security-Policy\" content=\"default-src 'none';"), html);
    // The SVG namespace is a name, not a download.
    assertEquals(count(html, "http://www.w3.org/2000/svg"), count(html, "http:"));
    assertEquals(0, count(html, "https:"));
    assertFalse(html.contains(" src="), "no external script or image");
    assertFalse(html.contains("<link"), "no external style sheet");
    assertFalse(html.contains("@import") || html.contains("url("), "no fetched style");
  }

  @Test
  void everyLabelIsEscaped() {
    String html = page(cross("case", 2, "bs", 3), null);

    assertFalse(html.contains("<b>"), "a value shown as markup");
    assertTrue(html.contains("&lt;b&gt;0&amp;"), "escaped case value");
    assertTrue(html.contains("<title>tunelab report: study &lt;1&gt;</title>"));
  }

  @Test
  void barsClusterByTheGroupAxisAndColourByTheOthers() {
    String html = page(cross("case", 2, "bs", 3), "case");

    assertEquals(1, count(html, "<svg class=\"tunelab-chart\""));
    assertTrue(html.contains("data-charts=\"1\""));
    assertEquals(6, count(html, "<rect class=\"bar\""));
    assertEquals(3, count(html, "<rect class=\"swatch\""), "three colours, one per bs");
    assertTrue(html.contains(">bs=v0</text>"), html);
  }

  @Test
  void everyRepetitionIsADotAndEveryBarHasItsConfidenceInterval() {
    String html = page(cross("case", 2, "bs", 3), "case");

    assertEquals(18, count(html, "<circle class=\"point\""), "three repetitions of six cells");
    assertEquals(6, count(html, "<rect class=\"ci\""));
    // 100, 101, 99: sample sd 1, t(0.975, 2) = 4.303, half-width 4.303 / sqrt(3) = 2.484.
    assertTrue(html.contains("(n = 3; 95 % CI 97.516 to 102.484)"), html);
  }

  @Test
  void moreThanEightColoursSplitIntoCharts() {
    // group bs (2); others: disk (3) x threads (4) = 12 series: disk becomes one chart each.
    String html = page(cross("disk", 3, "threads", 4, "bs", 2), null);

    assertEquals(3, count(html, "<svg class=\"tunelab-chart\""));
    assertEquals(24, count(html, "<rect class=\"bar\""));
    assertEquals(12, count(html, "<rect class=\"swatch\""));
    assertTrue(html.contains("study &lt;1&gt;  ·  disk=v2"), "a chart per disk");
  }

  @Test
  void axesWithOneValueMoveIntoTheTitle() {
    String html = page(cross("scheduler", 1, "case", 2, "bs", 3), null);

    assertEquals(1, count(html, "<svg class=\"tunelab-chart\""));
    assertTrue(html.contains("study &lt;1&gt;  ·  scheduler=v0"), html);
    assertEquals(2, count(html, "<rect class=\"swatch\""));
  }

  @Test
  void pagesStopAtSixtyCharts() {
    // Ten values of b are more than eight colours: one chart per a and b.
    String html = page(cross("a", 10, "b", 10, "bs", 2), null);

    assertEquals(HtmlReport.MAX_CHARTS, count(html, "<svg class=\"tunelab-chart\""));
    assertTrue(html.contains("Showing the first 60 of 100 charts"), "says what is left out");
    assertEquals(200, count(html, "<tr><td"), "the tables still show every cell");
  }

  @Test
  void nothingMeasuredNoCharts() {
    ReportData data = cross("bs", 2);
    ReportData empty =
        ReportData.builder(1, "e")
            .status(ExperimentStatus.PLANNED)
            .counts(new TrialCounts(0, 0, 0, 6, 0))
            .job(null, List.of())
            .units(Map.of())
            .paramNames(data.paramNames())
            .cells(
                data.cells().stream()
                    .map(c -> new Cell(c.ordinal(), c.label(), c.params(), List.of(), Map.of()))
                    .toList())
            .build();

    String html = page(empty, null);

    assertTrue(html.contains("data-charts=\"0\""));
    assertTrue(html.contains("Nothing measured yet"));
  }

  @Test
  void theYAxisEndsAtARoundNumber() {
    assertEquals(300, BarChart.niceTop(255), 1e-9);
    assertEquals(100, BarChart.niceStep(255), 1e-9);
    assertEquals(125, BarChart.niceTop(111.08), 1e-9);
    assertEquals(List.of(0.0, 25.0, 50.0, 75.0, 100.0, 125.0), BarChart.ticks(125, 25));
    assertEquals(0.6, BarChart.niceTop(0.55), 1e-9);
  }
}
