package io.tunelab.search;

import java.util.List;
import java.util.Locale;

/**
 * {@link Effects} as text or Markdown: the ranked factors, their ranked interactions, then each
 * factor's levels.
 */
public final class EffectsText {
  private EffectsText() {}

  /** Fixed-width text, or a Markdown table when {@code markdown}. */
  public static String render(Effects e, String heading, boolean markdown) {
    StringBuilder out = new StringBuilder();
    out.append(markdown ? "### " : "").append(heading).append("\n\n");
    if (e.factors().isEmpty()) {
      return out.append("no axis has two levels among the measured trials\n").toString();
    }
    if (markdown) {
      out.append(
          "| factor | levels | range | eta² | F | p |\n| --- | ---: | ---: | ---: | ---: | ---: |\n");
    } else {
      out.append(
          String.format(
              Locale.ROOT,
              "%-28s %6s %12s %6s %10s %8s%n",
              "factor",
              "levels",
              "range",
              "eta²",
              "F",
              "p"));
    }
    for (Effects.Factor f : e.factors()) {
      String line =
          markdown
              ? String.format(
                  Locale.ROOT,
                  "| %s | %d | %.4g | %.2f | %s | %s |%n",
                  f.name(),
                  f.levels().size(),
                  f.range(),
                  f.etaSquared(),
                  number(f.f()),
                  p(f.p()))
              : String.format(
                  Locale.ROOT,
                  "%-28s %6d %12.4g %6.2f %10s %8s%n",
                  f.name(),
                  f.levels().size(),
                  f.range(),
                  f.etaSquared(),
                  number(f.f()),
                  p(f.p()));
      out.append(line);
    }
    twoLevelEffects(e, markdown, out);
    interactions(e, markdown, out);
    out.append(markdown ? "\n| level | n | mean | 95 % CI |\n| --- | ---: | ---: | --- |\n" : "\n");
    for (Effects.Factor f : e.factors()) {
      for (Effects.Level l : f.levels()) {
        String ci =
            Double.isNaN(l.low())
                ? "n<2"
                : String.format(Locale.ROOT, "[%.4g, %.4g]", l.low(), l.high());
        String name = f.name() + "=" + l.value();
        out.append(
            markdown
                ? String.format(Locale.ROOT, "| %s | %d | %.4g | %s |%n", name, l.n(), l.mean(), ci)
                : String.format(Locale.ROOT, "%-40s %5d %12.4g  %s%n", name, l.n(), l.mean(), ci));
      }
    }
    return out.toString();
  }

  /** For each factor of two levels, the effect of going from its first to its second level. */
  private static void twoLevelEffects(Effects e, boolean markdown, StringBuilder out) {
    List<Effects.Factor> two = e.factors().stream().filter(f -> !Double.isNaN(f.effect())).toList();
    if (two.isEmpty()) {
      return;
    }
    out.append(
        markdown
            ? "\n| effect (second level - first) | effect | 95 % CI |\n| --- | ---: | --- |\n"
            : String.format(
                Locale.ROOT,
                "%n%-41s %12s  %s%n",
                "effect (second level - first)",
                "effect",
                "95 % CI"));
    for (Effects.Factor f : two) {
      String name = f.name() + ": " + f.levels().get(1).value() + " - " + f.levels().get(0).value();
      String ci =
          Double.isNaN(f.effectLow())
              ? "-"
              : String.format(Locale.ROOT, "[%.4g, %.4g]", f.effectLow(), f.effectHigh());
      out.append(
          String.format(
              Locale.ROOT,
              markdown ? "| %s | %.4g | %s |%n" : "%-41s %12.4g  %s%n",
              name,
              f.effect(),
              ci));
    }
  }

  private static void interactions(Effects e, boolean markdown, StringBuilder out) {
    if (e.interactions().isEmpty()) {
      return;
    }
    out.append(
        markdown
            ? "\n| interaction | df | eta² | F | p |\n| --- | ---: | ---: | ---: | ---: |\n"
            : String.format(
                Locale.ROOT, "%n%-41s %6s %6s %10s %8s%n", "interaction", "df", "eta²", "F", "p"));
    for (Effects.Interaction i : e.interactions()) {
      String name = i.first() + " x " + i.second();
      out.append(
          String.format(
              Locale.ROOT,
              markdown ? "| %s | %d | %.2f | %s | %s |%n" : "%-41s %6d %6.2f %10s %8s%n",
              name,
              i.df(),
              i.etaSquared(),
              number(i.f()),
              p(i.p())));
    }
  }

  private static String number(double x) {
    return Double.isNaN(x)
        ? "-"
        : Double.isInfinite(x) ? "inf" : String.format(Locale.ROOT, "%.3g", x);
  }

  private static String p(double p) {
    if (Double.isNaN(p)) {
      return "-";
    }
    return p < 0.001 ? "<0.001" : String.format(Locale.ROOT, "%.3f", p);
  }
}
