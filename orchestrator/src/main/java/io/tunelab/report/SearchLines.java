package io.tunelab.report;

import io.tunelab.Decimals;
import io.tunelab.search.Confirmation;
import io.tunelab.search.Effects;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A {@link SearchSection} as words and tables, the same in every format: its summary lines, then
 * parts with a heading and a table or lines each, which text, Markdown and HTML lay out.
 */
final class SearchLines {
  /** At most this many axes in the table of which mattered; {@code effects} shows them all. */
  static final int MAX_AXES = 6;

  private SearchLines() {}

  /**
   * One part of the section: a heading, then a table ({@code header} not empty, {@code right} its
   * right-aligned columns) or lines.
   */
  record Part(
      String heading,
      List<String> header,
      List<Boolean> right,
      List<List<String>> rows,
      List<String> lines,
      String note) {
    static Part table(
        String heading,
        List<String> header,
        List<Boolean> right,
        List<List<String>> rows,
        String note) {
      return new Part(heading, header, right, rows, List.of(), note);
    }

    static Part lines(String heading, List<String> lines) {
      return new Part(heading, List.of(), List.of(), List.of(), lines, null);
    }

    boolean isTable() {
      return !header.isEmpty();
    }
  }

  /** The objective, the trials spent, the winner and its confirmation. */
  static List<String> summary(SearchSection s) {
    List<String> lines = new ArrayList<>();
    lines.add(
        "search: "
            + s.objective()
            + " by "
            + s.method()
            + ", "
            + s.spent()
            + " of "
            + s.budget()
            + " trials spent");
    if (s.winner() == null) {
      SearchSection.Point last =
          s.bestSoFar().isEmpty() ? null : s.bestSoFar().get(s.bestSoFar().size() - 1);
      lines.add(
          "winner: none yet"
              + (last == null
                  ? ""
                  : "; best so far cell " + last.cell() + " (" + last.label() + ")"));
    } else {
      lines.add("winner: cell " + s.winner().ordinal() + " (" + s.winner().label() + ")");
    }
    lines.add("confirmation: " + confirmation(s));
    return lines;
  }

  private static String confirmation(SearchSection s) {
    Confirmation c = s.confirmation();
    if (c == null) {
      return s.winner() == null ? "after the search" : "not run yet";
    }
    String against =
        "cell "
            + c.winner()
            + " ("
            + c.nextN()
            + (c.nextN() == 1 ? " trial" : " trials")
            + ") against default ("
            + c.baseN()
            + "): ";
    if (!c.tested()) {
      return against + c.text(metric(s));
    }
    return against + c.text(metric(s)) + ", p " + pValue(c.p());
  }

  /**
   * The objective's metric as the confirmation names it: {@code mib_per_s}, {@code writer.iops}.
   */
  private static String metric(SearchSection s) {
    return s.objective().substring(s.objective().indexOf(' ') + 1);
  }

  private static String pValue(double p) {
    return p < 0.001 ? "< 0.001" : "= " + Numbers.p(p);
  }

  /** The best so far, the eliminated candidates, and which axes mattered. */
  static List<Part> parts(SearchSection s) {
    List<Part> parts = new ArrayList<>();
    String unit = s.unit() == null ? "" : " (" + s.unit() + ")";
    List<List<String>> best = new ArrayList<>();
    for (SearchSection.Point p : s.checkpoints()) {
      best.add(
          List.of(
              Integer.toString(p.round()),
              Integer.toString(p.trials()),
              Integer.toString(p.cell()),
              Numbers.fixed(p.mean()),
              Integer.toString(p.n()),
              p.label()));
    }
    if (!best.isEmpty()) {
      parts.add(
          Part.table(
              "best so far against trials spent"
                  + (s.checkpoints().size() < roundsOf(s) ? ", every few rounds" : ""),
              List.of("round", "trials", "cell", metric(s) + unit, "n", "label"),
              List.of(true, true, true, true, true, false),
              best,
              "best: the best mean of the candidates with at least min("
                  + SearchSection.ENOUGH
                  + ", rounds ended) ok values; the confirmation left out"));
    }
    List<String> out = new ArrayList<>();
    for (SearchSection.Elimination e : s.eliminated()) {
      out.add(
          "after round "
              + e.round()
              + ": cell "
              + e.cell()
              + " ("
              + e.label()
              + "): "
              + (e.reason() == null ? "eliminated" : e.reason()));
    }
    if (!out.isEmpty()) {
      parts.add(
          Part.lines(
              "eliminated: " + out.size() + (out.size() == 1 ? " candidate" : " candidates"), out));
    }
    Part axes = axes(s);
    if (axes != null) {
      parts.add(axes);
    }
    return parts;
  }

  private static int roundsOf(SearchSection s) {
    return (int) s.bestSoFar().stream().mapToInt(SearchSection.Point::round).distinct().count();
  }

  /** The axes ranked by the share of the variance they explain, with their best level. */
  private static Part axes(SearchSection s) {
    Effects e = s.effects();
    if (e == null || e.factors().isEmpty()) {
      return null;
    }
    boolean maximize = s.objective().startsWith("maximize");
    // A race's candidates are no balanced design: its effects rank the axes, they do not size them.
    boolean twoLevels =
        s.method().equals("screen")
            && e.factors().stream().anyMatch(f -> !Double.isNaN(f.effect()));
    List<List<String>> rows = new ArrayList<>();
    for (Effects.Factor f : e.factors().subList(0, Math.min(MAX_AXES, e.factors().size()))) {
      Comparator<Effects.Level> byMean = Comparator.comparingDouble(Effects.Level::mean);
      Effects.Level best =
          f.levels().stream()
              .filter(l -> !Double.isNaN(l.mean()))
              .max(maximize ? byMean : byMean.reversed())
              .orElse(null);
      List<String> row = new ArrayList<>();
      row.add(f.name());
      row.add(Decimals.of(f.etaSquared(), 2));
      row.add(Numbers.p(f.p()));
      row.add(best == null ? "-" : best.value() + " (" + Numbers.fixed(best.mean()) + ")");
      if (twoLevels) {
        row.add(
            Double.isNaN(f.effect())
                ? "-"
                : Numbers.fixed(f.effect())
                    + (Double.isNaN(f.effectLow())
                        ? ""
                        : " ["
                            + Numbers.fixed(f.effectLow())
                            + ", "
                            + Numbers.fixed(f.effectHigh())
                            + "]"));
      }
      rows.add(row);
    }
    List<String> header = new ArrayList<>(List.of("axis", "eta²", "p", "best level (mean)"));
    List<Boolean> right = new ArrayList<>(List.of(false, true, true, false));
    if (twoLevels) {
      header.add("effect, last level - first [95% CI]");
      right.add(false);
    }
    return Part.table(
        "which axes mattered",
        header,
        right,
        rows,
        "eta²: the share of the variance of the candidates' "
            + e.n()
            + " values an axis explains; p: its F test; tunelab effects has the levels and the"
            + " interactions");
  }
}
