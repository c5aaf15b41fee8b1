package io.tunelab.run;

import io.tunelab.TunelabException;
import io.tunelab.knob.ApplyPlanner;
import io.tunelab.knob.Knob;
import io.tunelab.knob.KnobChecks;
import io.tunelab.knob.ReadResult;
import io.tunelab.plan.Cell;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks, before the first write, that every knob exists on its host, is writable, and accepts
 * every value the plan will write; returns each knob's value at the start (its original).
 */
final class Preflight {
  private Preflight() {}

  /** Host to path to normalized original value; throws exit 3 listing every problem. */
  static Map<String, Map<String, String>> check(
      Hosts hosts, ExperimentKnobs knobs, List<Cell> cells, Map<String, String> captures) {
    Findings findings = inspect(hosts, knobs, cells, captures);
    if (!findings.problems().isEmpty()) {
      throw new TunelabException(
          TunelabException.HOST_REFUSED,
          "preflight refused the plan; nothing was changed:\n  "
              + String.join("\n  ", findings.problems()));
    }
    return findings.originals();
  }

  /** What preflight found: originals per host, and problems each starting with "host NAME: ". */
  record Findings(Map<String, Map<String, String>> originals, List<String> problems) {}

  /** Reads every knob on its host and judges every value the plan will write. */
  static Findings inspect(
      Hosts hosts, ExperimentKnobs knobs, List<Cell> cells, Map<String, String> captures) {
    Map<String, Map<Knob, Set<String>>> values = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    for (Cell cell : cells) {
      Map<String, Map<Knob, String>> byHost = new LinkedHashMap<>();
      knobs
          .requested(cell, captures, 1)
          .forEach(
              (k, v) -> {
                byHost.computeIfAbsent(k.host(), h -> new LinkedHashMap<>()).put(k.knob(), v);
                values
                    .computeIfAbsent(k.host(), h -> new LinkedHashMap<>())
                    .computeIfAbsent(k.knob(), x -> new LinkedHashSet<>())
                    .add(v);
              });
      byHost.forEach(
          (host, requested) ->
              ApplyPlanner.conflicts(requested)
                  .ifPresent(
                      p -> problems.add("host " + host + ": cell " + cell.label() + ": " + p)));
    }
    Map<String, Map<String, ReadResult>> reads =
        hosts.parallel(
            s -> s.read(KnobChecks.pathsToRead(values.getOrDefault(s.host(), Map.of()).keySet())));
    Map<String, Map<String, String>> originals = new HashMap<>();
    values.forEach(
        (host, perKnob) -> {
          KnobChecks.checkAll(perKnob, reads.get(host))
              .forEach(p -> problems.add("host " + host + ": " + p));
          originals.put(host, ApplyPlanner.originals(perKnob.keySet(), reads.get(host)));
        });
    return new Findings(originals, problems);
  }
}
