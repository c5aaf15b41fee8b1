package io.tunelab.run;

import io.tunelab.TunelabException;
import io.tunelab.agent.AgentSession;
import io.tunelab.inventory.BootSpec;
import io.tunelab.plan.BootPlan;
import io.tunelab.plan.Cell;
import io.tunelab.workload.JobResult;
import io.tunelab.workload.ProcessPlan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks, before anything is touched, that every release the plan asks of a host is installed there
 * with its initrd and that the host's boot method works (exit 3 naming host and release).
 */
final class KernelPreflight {
  private static final Duration LIMIT = Duration.ofSeconds(60);

  private KernelPreflight() {}

  /**
   * @param start each booted host's start release (the one a boot back needs and {@code default}
   *     means)
   */
  static void check(
      Hosts hosts,
      BootPlan plan,
      List<Cell> cells,
      HostConnector connector,
      Map<String, String> start) {
    Map<String, Set<String>> releases = releases(plan, cells, start);
    List<String> problems = new ArrayList<>();
    releases.forEach(
        (host, wanted) -> {
          AgentSession session = hosts.session(host);
          BootSpec spec = connector.boot(host);
          for (String release : wanted) {
            JobResult job =
                session
                    .run(
                        List.of(
                            new ProcessPlan(
                                "kernel-check", BootCommands.check(spec, release), null)),
                        LIMIT)
                    .jobs()
                    .get(0);
            for (String line : job.stdout()) {
              if (!line.isBlank()) {
                problems.add("host " + host + ": " + line.strip());
              }
            }
            if (job.exitCode() != 0) {
              problems.add(
                  "host "
                      + host
                      + ": the check of kernel "
                      + release
                      + " exited "
                      + job.exitCode());
            }
          }
        });
    if (!problems.isEmpty()) {
      throw new TunelabException(
          TunelabException.HOST_REFUSED,
          "preflight refused the plan; nothing was changed:\n  " + String.join("\n  ", problems));
    }
  }

  /**
   * Host to the releases it may boot: every one a cell asks for, and its start release when it
   * boots at all.
   */
  private static Map<String, Set<String>> releases(
      BootPlan plan, List<Cell> cells, Map<String, String> start) {
    Map<String, Set<String>> releases = new LinkedHashMap<>();
    Set<List<String>> seen = new java.util.HashSet<>();
    for (Cell cell : cells) {
      Map<String, BootPlan.Want> wants = plan.wants(cell, 1);
      if (!seen.add(wants.values().stream().map(BootPlan.Want::release).toList())) {
        continue;
      }
      wants.forEach(
          (host, w) -> {
            String release = w.resolved(start.get(host)).release();
            if (!release.equals(start.get(host))) {
              releases.computeIfAbsent(host, h -> new LinkedHashSet<>()).add(release);
            }
          });
    }
    for (String host : plan.hosts()) {
      if (releases.containsKey(host) || plan.boots() > 1) {
        releases.computeIfAbsent(host, h -> new LinkedHashSet<>()).add(start.get(host));
      }
    }
    return releases;
  }
}
