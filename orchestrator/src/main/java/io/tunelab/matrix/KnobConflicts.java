package io.tunelab.matrix;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds knobs that one cell would set twice: in settings and on an axis, on an axis and in a case,
 * in two cases axes, or through two roles that run on the same host.
 */
final class KnobConflicts {
  private KnobConflicts() {}

  static void check(List<KnobSetting> settings, Roles roles, NodeReader in) {
    Map<String, List<KnobSetting>> byKnob = new LinkedHashMap<>();
    for (KnobSetting s : settings) {
      String knob = s.knob().substring(s.knob().indexOf('.') + 1);
      String onHost = roles.hostOf(s.knob()) + "\u0000" + knob;
      byKnob.computeIfAbsent(onHost, k -> new ArrayList<>()).add(s);
    }
    for (List<KnobSetting> same : byKnob.values()) {
      if (same.size() < 2) {
        continue;
      }
      same.sort(
          Comparator.comparingInt((KnobSetting s) -> s.position().line())
              .thenComparingInt(s -> s.position().column()));
      for (int j = 1; j < same.size(); j++) {
        KnobSetting later = same.get(j);
        for (int i = 0; i < j; i++) {
          KnobSetting earlier = same.get(i);
          if (meet(earlier, later)) {
            in.problem(later.position(), later.key(), message(earlier, later, roles));
            break;
          }
        }
      }
    }
  }

  /** Two cases of one axis never meet in a cell; anything else does. */
  private static boolean meet(KnobSetting a, KnobSetting b) {
    return !a.group().equals(b.group()) || a.option().equals(b.option());
  }

  private static String message(KnobSetting earlier, KnobSetting later, Roles roles) {
    String where = earlier.owner() + " (line " + earlier.position().line() + ")";
    if (earlier.knob().equals(later.knob())) {
      return "a cell would set this knob twice: " + where + " sets it too";
    }
    return "a cell would set this knob twice: '"
        + earlier.knob()
        + "' in "
        + where
        + " is the same knob, both roles running on host '"
        + roles.hostOf(later.knob())
        + "'";
  }
}
