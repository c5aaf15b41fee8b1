package io.tunelab.report;

import io.tunelab.report.Comparison.Row;
import io.tunelab.store.ReportData;
import io.tunelab.store.RunConditions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What differs between the two sides of a comparison besides the compared axis: the kernels the
 * hosts ran, the knobs' values of matched cells, and the hosts' facts. Only differences; the kernel
 * command lines are {@link Comparison#cmdlineHosts()}.
 */
final class Differences {
  /** What a side has not got: a knob its cell does not set, a fact its host did not report. */
  static final String NONE = "(none)";

  /**
   * Facts that differ from one boot or agent state to the next whatever was changed, and the
   * kernel, which has a line of its own.
   */
  private static final Set<String> UNCOMPARED =
      Set.of("boot_id", "journal", "state", "uid", "kernel_release");

  private Differences() {}

  /**
   * The differences, kernels first, then knobs and facts, each sorted by name.
   *
   * @param axis the compared axis (its knob is not listed), null for two experiments
   */
  static List<Comparison.Difference> of(
      Comparison.Side base,
      Comparison.Side next,
      RunConditions baseRan,
      RunConditions newRan,
      List<Row> rows,
      String axis) {
    List<Comparison.Difference> out = new ArrayList<>();
    Map<String, Set<String>> kb = kernels(base.data(), rows, true);
    Map<String, Set<String>> kn = kernels(next.data(), rows, false);
    Set<String> hosts = new TreeSet<>(kb.keySet());
    hosts.addAll(kn.keySet());
    for (String h : hosts) {
      String b = joined(kb.get(h));
      String n = joined(kn.get(h));
      if (!b.equals(n)) {
        out.add(new Comparison.Difference("kernel", h, b, n, rows.size(), rows.size()));
      }
    }
    out.addAll(knobs(baseRan, newRan, rows, axis));
    if (base.data() != next.data()) {
      boolean cmdlines = !base.cmdlines().isEmpty() || !next.cmdlines().isEmpty();
      out.addAll(facts(base.data(), next.data(), baseRan, newRan, cmdlines, rows.size()));
    }
    return List.copyOf(out);
  }

  /**
   * The releases each host ran over the side's compared trials ({@code trial_hosts}), by role;
   * where none were recorded, the releases the hosts had when the experiment started.
   */
  private static Map<String, Set<String>> kernels(ReportData d, List<Row> rows, boolean base) {
    Map<String, String> roles = roles(d);
    Map<String, Set<String>> byHost = new TreeMap<>();
    for (Row r : rows) {
      for (ReportData.Trial t : (base ? r.baseCell() : r.newCell()).trials()) {
        for (ReportData.Boot b : t.boots()) {
          byHost
              .computeIfAbsent(roles.getOrDefault(b.host(), b.host()), k -> new TreeSet<>())
              .add(b.kernelRelease());
        }
      }
    }
    if (byHost.isEmpty()) {
      for (ReportData.Host h : d.hosts()) {
        if (h.kernelRelease() != null) {
          byHost.computeIfAbsent(h.role(), k -> new TreeSet<>()).add(h.kernelRelease());
        }
      }
    }
    return byHost;
  }

  /** Each host's roles, joined by {@code +} when it plays several. */
  private static Map<String, String> roles(ReportData d) {
    Map<String, String> roles = new TreeMap<>();
    for (ReportData.Host h : d.hosts()) {
      roles.merge(h.host(), h.role(), (a, b) -> a + "+" + b);
    }
    return roles;
  }

  private static List<Comparison.Difference> knobs(
      RunConditions baseRan, RunConditions newRan, List<Row> rows, String axis) {
    // knob -> "base value" and "new value" -> how many rows
    Map<String, Map<List<String>, Integer>> found = new TreeMap<>();
    for (Row r : rows) {
      Map<String, String> b = baseRan.knobs().getOrDefault(r.baseCell().ordinal(), Map.of());
      Map<String, String> n = newRan.knobs().getOrDefault(r.newCell().ordinal(), Map.of());
      Set<String> names = new TreeSet<>(b.keySet());
      names.addAll(n.keySet());
      if (axis != null) {
        names.remove(axis);
      }
      for (String k : names) {
        String vb = b.getOrDefault(k, NONE);
        String vn = n.getOrDefault(k, NONE);
        if (!vb.equals(vn)) {
          found
              .computeIfAbsent(k, x -> new LinkedHashMap<>())
              .merge(List.of(vb, vn), 1, Integer::sum);
        }
      }
    }
    List<Comparison.Difference> out = new ArrayList<>();
    found.forEach(
        (k, pairs) ->
            pairs.forEach(
                (p, count) ->
                    out.add(
                        new Comparison.Difference(
                            "knob", k, p.get(0), p.get(1), count, rows.size()))));
    return out;
  }

  /** The facts of each role's host that differ, the kernel left to its own line. */
  private static List<Comparison.Difference> facts(
      ReportData base,
      ReportData next,
      RunConditions baseRan,
      RunConditions newRan,
      boolean cmdlines,
      int rows) {
    Map<String, String> hb = hostsByRole(base);
    Map<String, String> hn = hostsByRole(next);
    Set<String> roles = new TreeSet<>(hb.keySet());
    roles.addAll(hn.keySet());
    List<Comparison.Difference> out = new ArrayList<>();
    for (String role : roles) {
      Map<String, String> fb = baseRan.facts().getOrDefault(hb.get(role), Map.of());
      Map<String, String> fn = newRan.facts().getOrDefault(hn.get(role), Map.of());
      if (!Objects.equals(hb.get(role), hn.get(role))) {
        out.add(
            new Comparison.Difference(
                "host",
                role,
                hb.getOrDefault(role, NONE),
                hn.getOrDefault(role, NONE),
                rows,
                rows));
      }
      Set<String> keys = new TreeSet<>(fb.keySet());
      keys.addAll(fn.keySet());
      keys.removeAll(UNCOMPARED);
      if (cmdlines) {
        keys.remove("cmdline");
      }
      for (String k : keys) {
        String vb = fb.getOrDefault(k, NONE);
        String vn = fn.getOrDefault(k, NONE);
        // A noise check's figures (the load, the dirty pages) differ at every start: only a
        // check that went from ok to warn, or back, tells the sides apart.
        if (k.startsWith("noise.") && status(vb).equals(status(vn))) {
          continue;
        }
        if (!vb.equals(vn)) {
          out.add(new Comparison.Difference("fact", role + " " + k, vb, vn, rows, rows));
        }
      }
    }
    return out;
  }

  private static Map<String, String> hostsByRole(ReportData d) {
    Map<String, String> hosts = new TreeMap<>();
    for (ReportData.Host h : d.hosts()) {
      hosts.put(h.role(), h.host());
    }
    return hosts;
  }

  private static String joined(Set<String> values) {
    return values == null || values.isEmpty() ? NONE : String.join(", ", values);
  }

  /** A noise check's {@code ok} or {@code warn}, the word before its detail. */
  private static String status(String value) {
    int colon = value.indexOf(':');
    return colon < 0 ? value : value.substring(0, colon);
  }
}
