package io.tunelab.search;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.hipparchus.distribution.continuous.FDistribution;
import org.hipparchus.distribution.continuous.TDistribution;

/**
 * Which factors mattered: for each axis, a one-way analysis of variance of the measured values over
 * its levels (the other axes left to vary), with the share of the variance it explains (eta
 * squared) and each level's mean with its 95 % confidence interval; factors ranked by that share.
 * Then each pair of factors' interaction: what the means of their combined levels explain beyond
 * the two factors alone, tested against the spread within those combinations. On a full grid the
 * levels are balanced; on a race's candidates they are not, and a factor's effect then includes
 * what the candidates that happened to share a level had in common.
 *
 * @param n the values analysed
 * @param factors ranked, the one that explains most first
 * @param interactions ranked; a pair whose combinations leave no degree of freedom is left out
 */
public record Effects(String metric, int n, List<Factor> factors, List<Interaction> interactions) {
  private static final double LEVEL = 0.95;
  private static final Pattern NUMBER = Pattern.compile("-?[0-9]+(\\.[0-9]+)?");

  /** One measured value and the level of every factor it was measured at. */
  public record Observation(Map<String, String> levels, double value) {}

  /** A level's values: how many, their mean and its 95 % interval (NaN below two values). */
  public record Level(String value, int n, double mean, double low, double high) {}

  /**
   * One factor's analysis.
   *
   * @param range the highest level mean less the lowest
   * @param etaSquared the share of the total sum of squares between its levels, 0 to 1
   * @param p the F test's p-value that its levels' means are equal (NaN when it cannot be tested)
   * @param effect for a factor of two levels, the second level's mean less the first's (levels in
   *     numeric order where both are numbers), as a screen reads it; NaN otherwise
   * @param effectLow the effect's 95 % interval, from the spread left after every factor's main
   *     effect and every pair's interaction (exact on a balanced two-level design); NaN when none
   *     is left
   */
  public record Factor(
      String name,
      List<Level> levels,
      double range,
      double etaSquared,
      double f,
      int dfBetween,
      int dfWithin,
      double p,
      double effect,
      double effectLow,
      double effectHigh) {

    Factor withEffect(double effect, double low, double high) {
      return new Factor(
          name, levels, range, etaSquared, f, dfBetween, dfWithin, p, effect, low, high);
    }
  }

  /**
   * Two factors' interaction.
   *
   * @param df the interaction's degrees of freedom: the combinations seen, less the two factors'
   *     levels, plus one ({@code (a-1)(b-1)} on a full grid)
   * @param dfWithin the values less the combinations seen
   */
  public record Interaction(
      String first, String second, double etaSquared, double f, int df, int dfWithin, double p) {}

  /** The effects of {@code factors} (in the matrix's order) on {@code observations}. */
  public static Effects of(String metric, List<String> factors, List<Observation> observations) {
    double grand =
        observations.stream().mapToDouble(Observation::value).average().orElse(Double.NaN);
    double total = 0;
    for (Observation o : observations) {
      total += (o.value() - grand) * (o.value() - grand);
    }
    List<Factor> analysed = new ArrayList<>();
    for (String f : factors) {
      Map<String, List<Double>> byLevel = new LinkedHashMap<>();
      for (Observation o : observations) {
        byLevel.computeIfAbsent(o.levels().get(f), k -> new ArrayList<>()).add(o.value());
      }
      if (byLevel.size() < 2) {
        continue;
      }
      analysed.add(factor(f, byLevel, grand, total, observations.size()));
    }
    List<Interaction> pairs = new ArrayList<>();
    for (int i = 0; i < analysed.size(); i++) {
      for (int j = i + 1; j < analysed.size(); j++) {
        Interaction pair =
            interaction(analysed.get(i), analysed.get(j), observations, grand, total);
        if (pair != null) {
          pairs.add(pair);
        }
      }
    }
    analysed = withEffects(analysed, pairs, grand, total, observations.size());
    analysed.sort(Comparator.comparingDouble(Factor::etaSquared).reversed());
    pairs.sort(Comparator.comparingDouble(Interaction::etaSquared).reversed());
    return new Effects(metric, observations.size(), analysed, pairs);
  }

  /**
   * Each two-level factor's effect with its interval from the spread the model leaves: the main
   * effects and the pairs' interactions where degrees of freedom remain for them, else the main
   * effects alone.
   */
  private static List<Factor> withEffects(
      List<Factor> factors, List<Interaction> pairs, double grand, double total, int n) {
    double explained = 0;
    int df = n - 1;
    for (Factor f : factors) {
      explained += betweenOf(f, grand);
      df -= f.dfBetween();
    }
    int pairDf = pairs.stream().mapToInt(Interaction::df).sum();
    if (df - pairDf > 0) {
      for (Interaction i : pairs) {
        explained += i.etaSquared() * total;
      }
      df -= pairDf;
    }
    double mse = df > 0 ? Math.max(0, total - explained) / df : Double.NaN;
    double t = df > 0 ? new TDistribution(df).inverseCumulativeProbability((1 + LEVEL) / 2) : 0;
    List<Factor> out = new ArrayList<>();
    for (Factor f : factors) {
      if (f.levels().size() != 2) {
        out.add(f);
        continue;
      }
      Level a = f.levels().get(0);
      Level b = f.levels().get(1);
      double effect = b.mean() - a.mean();
      double half = t * Math.sqrt(mse * (1.0 / a.n() + 1.0 / b.n()));
      out.add(f.withEffect(effect, effect - half, effect + half));
    }
    return out;
  }

  private static Interaction interaction(
      Factor a, Factor b, List<Observation> observations, double grand, double total) {
    Map<List<String>, List<Double>> byPair = new LinkedHashMap<>();
    for (Observation o : observations) {
      byPair
          .computeIfAbsent(
              List.of(o.levels().get(a.name()), o.levels().get(b.name())), k -> new ArrayList<>())
          .add(o.value());
    }
    int df = byPair.size() - a.levels().size() - b.levels().size() + 1;
    int dfWithin = observations.size() - byPair.size();
    if (df < 1 || dfWithin < 1) {
      return null;
    }
    double cells = 0;
    double within = 0;
    for (List<Double> v : byPair.values()) {
      double mean = v.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
      cells += v.size() * (mean - grand) * (mean - grand);
      within += v.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum();
    }
    double ss = Math.max(0, cells - betweenOf(a, grand) - betweenOf(b, grand));
    double f = within > 0 ? (ss / df) / (within / dfWithin) : Double.NaN;
    double p =
        Double.isNaN(f) ? Double.NaN : 1 - new FDistribution(df, dfWithin).cumulativeProbability(f);
    return new Interaction(a.name(), b.name(), total > 0 ? ss / total : 0, f, df, dfWithin, p);
  }

  private static double betweenOf(Factor f, double grand) {
    double between = 0;
    for (Level l : f.levels()) {
      between += l.n() * (l.mean() - grand) * (l.mean() - grand);
    }
    return between;
  }

  private static Factor factor(
      String name, Map<String, List<Double>> byLevel, double grand, double total, int n) {
    double between = 0;
    double within = 0;
    List<Level> levels = new ArrayList<>();
    for (Map.Entry<String, List<Double>> e : byLevel.entrySet()) {
      List<Double> v = e.getValue();
      double mean = v.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
      double ss = v.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum();
      between += v.size() * (mean - grand) * (mean - grand);
      within += ss;
      double half = Double.NaN;
      if (v.size() >= 2) {
        double t = new TDistribution(v.size() - 1).inverseCumulativeProbability((1 + LEVEL) / 2);
        half = t * Math.sqrt(ss / (v.size() - 1)) / Math.sqrt(v.size());
      }
      levels.add(new Level(e.getKey(), v.size(), mean, mean - half, mean + half));
    }
    int dfBetween = byLevel.size() - 1;
    int dfWithin = n - byLevel.size();
    double f = Double.NaN;
    double p = Double.NaN;
    if (dfWithin > 0 && within > 0) {
      f = (between / dfBetween) / (within / dfWithin);
      p = 1 - new FDistribution(dfBetween, dfWithin).cumulativeProbability(f);
    } else if (dfWithin > 0 && between > 0) {
      f = Double.POSITIVE_INFINITY;
      p = 0;
    }
    double high = levels.stream().mapToDouble(Level::mean).max().orElse(Double.NaN);
    double low = levels.stream().mapToDouble(Level::mean).min().orElse(Double.NaN);
    if (levels.stream().allMatch(l -> NUMBER.matcher(l.value()).matches())) {
      levels.sort(Comparator.comparingDouble(l -> Double.parseDouble(l.value())));
    }
    return new Factor(
        name,
        levels,
        high - low,
        total > 0 ? between / total : 0,
        f,
        dfBetween,
        dfWithin,
        p,
        Double.NaN,
        Double.NaN,
        Double.NaN);
  }
}
