package io.tunelab.run;

import io.tunelab.TunelabException;
import io.tunelab.knob.Aliases;
import io.tunelab.knob.ApplyPlanner;
import io.tunelab.knob.Knob;
import io.tunelab.knob.KnobChecks;
import io.tunelab.knob.ReadResult;
import io.tunelab.plan.Cell;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks, before the first write, that every knob exists on its host, is writable, and accepts
 * every value the plan will write, and that no setting is named twice (two names for one file, or
 * one kernel's file on two hosts: see {@link Aliases}); returns each knob's value at the start (its
 * original). A cell's own knobs (named through its captures) get the same checks when the cell is
 * set up.
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
    Judgement j = new Judgement();
    // Cells that request the same values are judged once: a large plan has few combinations of
    // knob values, and every cell without knobs of its own requests the same defaults.
    Map<Map<RoleKnob, String>, List<HostProblem>> judged = new HashMap<>();
    Map<RoleKnob, String> defaults = null;
    for (Cell cell : cells) {
      Map<RoleKnob, String> requested;
      if (cell.knobs().isEmpty()) {
        if (defaults == null) {
          defaults = knobs.beforeCells(cell, captures, 1);
        }
        requested = defaults;
      } else {
        requested = knobs.beforeCells(cell, captures, 1);
      }
      List<HostProblem> conflicts = judged.get(requested);
      if (conflicts == null) {
        j.collect(requested, requested.keySet());
        conflicts = Judgement.conflicts(requested);
        judged.put(requested, conflicts);
      }
      j.report(cell, conflicts);
    }
    return j.judge(hosts);
  }

  /** A problem found with the values one cell requests of one host. */
  private record HostProblem(String host, String problem) {}

  /**
   * Judges a cell's own knobs once it is set up: {@code requested} is everything the cell's trials
   * request (for the exclusive pairs), {@code own} the knobs to read and check.
   */
  static Findings inspectCell(
      Hosts hosts, Cell cell, Map<RoleKnob, String> requested, Collection<RoleKnob> own) {
    Judgement j = new Judgement();
    j.add(cell, requested, own);
    return j.judge(hosts);
  }

  /** The values to judge, by host and knob, and the conflicts found while adding them. */
  private static final class Judgement {
    private final Map<String, Map<Knob, Set<String>>> values = new LinkedHashMap<>();
    private final List<String> problems = new ArrayList<>();

    void add(Cell cell, Map<RoleKnob, String> requested, Collection<RoleKnob> toCheck) {
      collect(requested, toCheck);
      report(cell, conflicts(requested));
    }

    /** Adds the values to judge. */
    void collect(Map<RoleKnob, String> requested, Collection<RoleKnob> toCheck) {
      for (RoleKnob k : toCheck) {
        values
            .computeIfAbsent(k.host(), h -> new LinkedHashMap<>())
            .computeIfAbsent(k.knob(), x -> new LinkedHashSet<>())
            .add(requested.get(k));
      }
    }

    /** The pairs of values that cannot be requested together, by host. */
    static List<HostProblem> conflicts(Map<RoleKnob, String> requested) {
      Map<String, Map<Knob, String>> byHost = new LinkedHashMap<>();
      requested.forEach(
          (k, v) -> byHost.computeIfAbsent(k.host(), h -> new LinkedHashMap<>()).put(k.knob(), v));
      List<HostProblem> found = new ArrayList<>();
      byHost.forEach(
          (host, perKnob) ->
              ApplyPlanner.conflicts(perKnob).ifPresent(p -> found.add(new HostProblem(host, p))));
      return found;
    }

    void report(Cell cell, List<HostProblem> conflicts) {
      for (HostProblem p : conflicts) {
        problems.add("host " + p.host() + ": cell " + cell.label() + ": " + p.problem());
      }
    }

    Findings judge(Hosts hosts) {
      // With the knobs, each host's boot id: hosts that share one are one kernel.
      boolean several = values.size() > 1;
      Map<String, Map<String, ReadResult>> reads =
          hosts.parallel(
              s -> {
                if (!values.containsKey(s.host())) {
                  return Map.<String, ReadResult>of();
                }
                List<String> paths =
                    new ArrayList<>(KnobChecks.pathsToRead(values.get(s.host()).keySet()));
                if (several) {
                  paths.add(Aliases.BOOT_ID);
                }
                return s.read(paths);
              });
      Map<String, List<String>> toList = new LinkedHashMap<>();
      values.forEach(
          (host, perKnob) -> {
            Set<String> dirs = new LinkedHashSet<>();
            for (Knob k : perKnob.keySet()) {
              ReadResult own = reads.get(host).get(k.path());
              if (own == null || !own.exists()) {
                dirs.addAll(KnobChecks.dirsToList(k));
              }
            }
            if (!dirs.isEmpty()) {
              toList.put(host, List.copyOf(dirs));
            }
          });
      // Only a host with a missing sysctl is asked, and only for that sysctl's directories.
      Map<String, Map<String, List<String>>> listings =
          toList.isEmpty()
              ? Map.of()
              : hosts.parallel(toList.keySet(), s -> s.list(toList.get(s.host())));
      Map<String, Map<String, String>> originals = new HashMap<>();
      Map<String, Set<Knob>> knobsByHost = new LinkedHashMap<>();
      values.forEach(
          (host, perKnob) -> {
            KnobChecks.checkAll(perKnob, reads.get(host), listings.getOrDefault(host, Map.of()))
                .forEach(p -> problems.add("host " + host + ": " + p));
            Aliases.within(perKnob.keySet(), reads.get(host))
                .forEach(p -> problems.add("host " + host + ": " + p));
            originals.put(host, ApplyPlanner.originals(perKnob.keySet(), reads.get(host)));
            knobsByHost.put(host, perKnob.keySet());
          });
      problems.addAll(Aliases.across(knobsByHost, reads));
      return new Findings(originals, problems);
    }
  }
}
