package io.tunelab.view;

import io.tunelab.search.Effects;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code tunelab effects --format json}: the factors ranked with their levels, then the ranked
 * interactions; a figure that cannot be computed is null.
 */
public final class EffectsJson {
  private EffectsJson() {}

  public static String render(Effects e, long experimentId, String name, String job) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("experiment", experimentId);
    doc.put("name", name);
    doc.put("job", job);
    doc.put("metric", e.metric());
    doc.put("n", e.n());
    List<Object> factors = new ArrayList<>();
    for (Effects.Factor f : e.factors()) {
      Map<String, Object> factor = new LinkedHashMap<>();
      factor.put("name", f.name());
      factor.put("range", number(f.range()));
      factor.put("eta_squared", number(f.etaSquared()));
      factor.put("f", number(f.f()));
      factor.put("df_between", f.dfBetween());
      factor.put("df_within", f.dfWithin());
      factor.put("p", number(f.p()));
      factor.put("effect", number(f.effect()));
      factor.put("effect_ci_low", number(f.effectLow()));
      factor.put("effect_ci_high", number(f.effectHigh()));
      List<Object> levels = new ArrayList<>();
      for (Effects.Level l : f.levels()) {
        Map<String, Object> level = new LinkedHashMap<>();
        level.put("value", l.value());
        level.put("n", l.n());
        level.put("mean", number(l.mean()));
        level.put("ci_low", number(l.low()));
        level.put("ci_high", number(l.high()));
        levels.add(level);
      }
      factor.put("levels", levels);
      factors.add(factor);
    }
    doc.put("factors", factors);
    List<Object> interactions = new ArrayList<>();
    for (Effects.Interaction i : e.interactions()) {
      Map<String, Object> pair = new LinkedHashMap<>();
      pair.put("factors", List.of(i.first(), i.second()));
      pair.put("eta_squared", number(i.etaSquared()));
      pair.put("f", number(i.f()));
      pair.put("df", i.df());
      pair.put("df_within", i.dfWithin());
      pair.put("p", number(i.p()));
      interactions.add(pair);
    }
    doc.put("interactions", interactions);
    return PrettyJson.write(doc);
  }

  /** JSON has no NaN or infinity. */
  private static Double number(double x) {
    return Double.isNaN(x) || Double.isInfinite(x) ? null : x;
  }
}
