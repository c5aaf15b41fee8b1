package io.tunelab.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A grouped bar chart as inline SVG: one cluster per group (a value of the grouping axis), one
 * coloured bar per series in each cluster, the mean as the bar, the standard deviation as an error
 * bar, the 95 % confidence interval of the mean as a grey band beside it and every repetition as a
 * dot. Drawn here, so the page needs no script, font or network to show it.
 *
 * @param values {@code values.get(series).get(group)}, null where there is no measurement
 */
public record BarChart(
    String title,
    String yLabel,
    String groupAxis,
    List<String> groups,
    List<String> series,
    List<List<Bar>> values) {

  /**
   * One bar: the mean, its error (a standard deviation), how many values it summarises, the
   * confidence interval of the mean (NaN ends when unknown) and the values themselves.
   */
  public record Bar(
      double mean,
      double error,
      int n,
      String label,
      double low,
      double high,
      List<Double> points) {
    public Bar {
      points = List.copyOf(points);
    }

    /** A bar without interval or points. */
    public Bar(double mean, double error, int n, String label) {
      this(mean, error, n, label, Double.NaN, Double.NaN, List.of());
    }
  }

  // Okabe & Ito's palette: distinguishable with the common colour-vision deficiencies.
  static final List<String> COLOURS =
      List.of(
          "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000");

  private static final int WIDTH = 1000;
  private static final int PLOT_LEFT = 80;
  private static final int PLOT_TOP = 40;
  private static final int PLOT_HEIGHT = 300;
  private static final int LEGEND_ROW = 20;

  /** The SVG element, sized by its viewBox so that it scales with the page. */
  public String svg() {
    int legendRows = series.size() > 1 ? series.size() : 0;
    int groupLabelsHeight = 50;
    int height = PLOT_TOP + PLOT_HEIGHT + groupLabelsHeight + legendRows * LEGEND_ROW + 10;
    int plotWidth = WIDTH - PLOT_LEFT - 20;
    double step = niceStep(maxExtent());
    double top = niceTop(maxExtent());
    StringBuilder svg = new StringBuilder();
    svg.append(
        String.format(
            Locale.ROOT,
            "<svg class=\"tunelab-chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d"
                + " %d\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"%s\">\n",
            WIDTH,
            height,
            WIDTH,
            height,
            Html.escape(title)));
    svg.append("<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
    svg.append(text(PLOT_LEFT, 24, "title", "start", title));
    // y axis: grid lines and tick labels
    for (double tick : ticks(top, step)) {
      double y = y(tick, top);
      svg.append(
          String.format(
              Locale.ROOT,
              "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n",
              PLOT_LEFT,
              y,
              PLOT_LEFT + plotWidth,
              y));
      svg.append(text(PLOT_LEFT - 8, y + 4, "tick", "end", tickLabel(tick, step)));
    }
    svg.append(
        String.format(
            Locale.ROOT,
            "<text class=\"axis-label\" transform=\"translate(18 %d) rotate(-90)\""
                + " text-anchor=\"middle\">%s</text>\n",
            PLOT_TOP + PLOT_HEIGHT / 2,
            Html.escape(yLabel)));
    svg.append(
        String.format(
            Locale.ROOT,
            "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
            PLOT_LEFT,
            PLOT_TOP + PLOT_HEIGHT,
            PLOT_LEFT + plotWidth,
            PLOT_TOP + PLOT_HEIGHT));
    double groupWidth = (double) plotWidth / Math.max(1, groups.size());
    double barWidth = groupWidth * 0.8 / Math.max(1, series.size());
    for (int g = 0; g < groups.size(); g++) {
      double left = PLOT_LEFT + g * groupWidth + groupWidth * 0.1;
      for (int s = 0; s < series.size(); s++) {
        Bar bar = values.get(s).get(g);
        if (bar == null) {
          continue;
        }
        double x = left + s * barWidth;
        double yMean = y(Math.max(0, bar.mean()), top);
        String colour = COLOURS.get(s % COLOURS.size());
        svg.append(
            String.format(
                Locale.ROOT,
                "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\""
                    + " fill=\"%s\"><title>%s</title></rect>\n",
                x + 1,
                yMean,
                Math.max(1, barWidth - 2),
                PLOT_TOP + PLOT_HEIGHT - yMean,
                colour,
                Html.escape(bar.label())));
        if (bar.n() < 3) {
          // Too few repetitions to trust the bar: say how many, above it.
          svg.append(
              text(
                  x + barWidth / 2,
                  y(bar.mean() + Math.max(0, bar.error()), top) - 6,
                  "count",
                  "middle",
                  "n=" + bar.n()));
        }
        if (!Double.isNaN(bar.low())) {
          double ciX = x + barWidth * 0.75;
          svg.append(
              String.format(
                  Locale.ROOT,
                  "<rect class=\"ci\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
                  ciX - Math.min(3, barWidth / 10),
                  y(bar.high(), top),
                  Math.max(1, Math.min(6, barWidth / 5)),
                  Math.max(1, y(Math.max(0, bar.low()), top) - y(bar.high(), top))));
        }
        for (int p = 0; p < bar.points().size(); p++) {
          // Spread across the bar's middle half, so that equal values stay apart.
          double px =
              x + barWidth * (0.25 + 0.5 * (p + 0.5) / bar.points().size()) - barWidth * 0.125;
          svg.append(
              String.format(
                  Locale.ROOT,
                  "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\"/>\n",
                  px,
                  y(Math.max(0, bar.points().get(p)), top)));
        }
        if (bar.error() > 0) {
          double cx = x + barWidth / 2;
          double lo = y(Math.max(0, bar.mean() - bar.error()), top);
          double hi = y(bar.mean() + bar.error(), top);
          double cap = Math.min(8, barWidth / 4);
          svg.append(
              String.format(
                  Locale.ROOT,
                  "<path class=\"error\" d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\"/>\n",
                  cx,
                  lo,
                  hi,
                  cx - cap,
                  hi,
                  cx + cap,
                  cx - cap,
                  lo,
                  cx + cap));
        }
      }
      svg.append(
          text(
              left + groupWidth * 0.4,
              PLOT_TOP + PLOT_HEIGHT + 18,
              "group",
              "middle",
              shorten(groups.get(g), (int) (groupWidth / 7))));
    }
    svg.append(
        text(
            PLOT_LEFT + plotWidth / 2.0,
            PLOT_TOP + PLOT_HEIGHT + 40,
            "axis-label",
            "middle",
            groupAxis));
    if (legendRows > 0) {
      int y0 = PLOT_TOP + PLOT_HEIGHT + groupLabelsHeight;
      for (int s = 0; s < series.size(); s++) {
        int y = y0 + s * LEGEND_ROW;
        svg.append(
            String.format(
                Locale.ROOT,
                "<rect class=\"swatch\" x=\"%d\" y=\"%d\" width=\"14\" height=\"14\""
                    + " fill=\"%s\"/>\n",
                PLOT_LEFT,
                y,
                COLOURS.get(s % COLOURS.size())));
        svg.append(text(PLOT_LEFT + 22, y + 12, "legend", "start", series.get(s)));
      }
    }
    svg.append("</svg>\n");
    return svg.toString();
  }

  private double maxExtent() {
    double max = 0;
    for (List<Bar> row : values) {
      for (Bar b : row) {
        if (b != null) {
          max = Math.max(max, b.mean() + Math.max(0, b.error()));
          if (!Double.isNaN(b.high())) {
            max = Math.max(max, b.high());
          }
          for (double p : b.points()) {
            max = Math.max(max, p);
          }
        }
      }
    }
    return max;
  }

  private static double y(double v, double top) {
    return PLOT_TOP + PLOT_HEIGHT - PLOT_HEIGHT * v / top;
  }

  /** The step between ticks: the 1, 2, 2.5 or 5 times a power of ten that gives at most five. */
  static double niceStep(double max) {
    if (!(max > 0) || Double.isInfinite(max)) {
      return 0.2;
    }
    double raw = max / 5;
    double power = Math.pow(10, Math.floor(Math.log10(raw)));
    for (double step : new double[] {1, 2, 2.5, 5}) {
      if (step * power >= raw) {
        return step * power;
      }
    }
    return 10 * power;
  }

  /** The top of the y axis: the first tick at or above {@code max}. */
  static double niceTop(double max) {
    double step = niceStep(max);
    return max > 0 && !Double.isInfinite(max) ? step * Math.ceil(max / step - 1e-9) : 5 * step;
  }

  /** The ticks from 0 to {@code top}, {@code step} apart. */
  static List<Double> ticks(double top, double step) {
    List<Double> ticks = new ArrayList<>();
    for (int i = 0; i * step <= top * (1 + 1e-9); i++) {
      ticks.add(i * step);
    }
    return ticks;
  }

  private static String tickLabel(double tick, double step) {
    return String.format(Locale.ROOT, "%." + tickDecimals(step) + "f", tick);
  }

  /** The decimals a tick label needs for ticks {@code step} apart (at most 6). */
  static int tickDecimals(double step) {
    int decimals = 0;
    while (decimals < 6
        && Math.abs(step * Math.pow(10, decimals) - Math.rint(step * Math.pow(10, decimals)))
            > 1e-6) {
      decimals++;
    }
    return decimals;
  }

  /** An SVG text element, its content escaped. */
  static String text(double x, double y, String cls, String anchor, String content) {
    return String.format(
        Locale.ROOT,
        "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>\n",
        cls,
        x,
        y,
        anchor,
        Html.escape(content));
  }

  private static String shorten(String s, int max) {
    int limit = Math.max(4, max);
    return s.length() <= limit ? s : s.substring(0, limit - 1) + "…";
  }
}
