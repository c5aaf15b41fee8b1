package io.tunelab.report;

import io.tunelab.Decimals;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A search's best mean so far against the trials spent, as inline SVG: a step line, one step per
 * trial, with a dot where another candidate became the best (its label as the dot's tooltip). The y
 * axis spans the values shown, not from zero: the steps are what matters.
 */
record ProgressChart(String title, String yLabel, List<SearchSection.Point> points) {
  private static final int WIDTH = 1000;
  private static final int HEIGHT = 400;
  private static final int LEFT = 80;
  private static final int TOP = 40;
  private static final int PLOT_WIDTH = WIDTH - LEFT - 20;
  private static final int PLOT_HEIGHT = 300;

  ProgressChart {
    points = List.copyOf(points);
  }

  /** The SVG element, sized by its viewBox so that it scales with the page. */
  String svg() {
    StringBuilder svg = new StringBuilder();
    svg.append(
        String.format(
            Locale.ROOT,
            "<svg class=\"tunelab-progress\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0"
                + " %d %d\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"%s\">\n",
            WIDTH,
            HEIGHT,
            WIDTH,
            HEIGHT,
            Html.escape(title)));
    svg.append("<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
    svg.append(BarChart.text(LEFT, 24, "title", "start", title));
    double low = points.stream().mapToDouble(SearchSection.Point::mean).min().orElse(0);
    double high = points.stream().mapToDouble(SearchSection.Point::mean).max().orElse(1);
    double step = BarChart.niceStep(Math.max(high - low, Math.abs(high) * 0.01));
    double bottom = step * Math.floor(low / step);
    double top = Math.max(bottom + step, step * Math.ceil(high / step));
    for (double tick = bottom; tick <= top + step * 1e-9; tick += step) {
      double y = y(tick, bottom, top);
      svg.append(
          String.format(
              Locale.ROOT,
              "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n",
              LEFT,
              y,
              LEFT + PLOT_WIDTH,
              y));
      svg.append(
          BarChart.text(
              LEFT - 8, y + 4, "tick", "end", Decimals.of(tick, BarChart.tickDecimals(step))));
    }
    int last = points.isEmpty() ? 1 : points.get(points.size() - 1).trials();
    double xStep = BarChart.niceStep(last);
    double xTop = BarChart.niceTop(last);
    for (double tick : BarChart.ticks(xTop, xStep)) {
      double x = x(tick, xTop);
      svg.append(BarChart.text(x, TOP + PLOT_HEIGHT + 18, "tick", "middle", Decimals.of(tick, 0)));
    }
    svg.append(
        String.format(
            Locale.ROOT,
            "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
            LEFT,
            TOP + PLOT_HEIGHT,
            LEFT + PLOT_WIDTH,
            TOP + PLOT_HEIGHT));
    svg.append(
        BarChart.text(
            LEFT + PLOT_WIDTH / 2.0, TOP + PLOT_HEIGHT + 40, "axis-label", "middle", "trials"));
    svg.append(
        String.format(
            Locale.ROOT,
            "<text class=\"axis-label\" transform=\"translate(18 %d) rotate(-90)\""
                + " text-anchor=\"middle\">%s</text>\n",
            TOP + PLOT_HEIGHT / 2,
            Html.escape(yLabel)));
    List<String> path = new ArrayList<>();
    List<String> dots = new ArrayList<>();
    int previousCell = 0;
    double previousY = Double.NaN;
    for (SearchSection.Point p : points) {
      double x = x(p.trials(), xTop);
      double y = y(p.mean(), bottom, top);
      if (path.isEmpty()) {
        path.add(String.format(Locale.ROOT, "M%.1f %.1f", x, y));
      } else {
        path.add(String.format(Locale.ROOT, "H%.1fV%.1f", x, y));
      }
      if (p.cell() != previousCell) {
        dots.add(
            String.format(
                Locale.ROOT,
                "<circle class=\"best\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"><title>%s</title></circle>\n",
                x,
                y,
                Html.escape(
                    "trial "
                        + p.trials()
                        + ": cell "
                        + p.cell()
                        + " ("
                        + p.label()
                        + ") mean "
                        + Numbers.fixed(p.mean())
                        + ", n = "
                        + p.n())));
      }
      previousCell = p.cell();
      previousY = y;
    }
    if (!path.isEmpty() && !Double.isNaN(previousY)) {
      svg.append("<path class=\"best\" d=\"").append(String.join("", path)).append("\"/>\n");
      dots.forEach(svg::append);
    }
    svg.append("</svg>\n");
    return svg.toString();
  }

  private static double x(double trials, double xTop) {
    return LEFT + PLOT_WIDTH * trials / xTop;
  }

  private static double y(double v, double bottom, double top) {
    return TOP + PLOT_HEIGHT - PLOT_HEIGHT * (v - bottom) / (top - bottom);
  }
}
