package io.tunelab.run;

import io.tunelab.agent.AgentSession;
import io.tunelab.agent.Health;
import io.tunelab.agent.TrialReport;
import io.tunelab.agent.TrialRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs one trial's processes and monitors across hosts: started on every host at once, released
 * together once every host's processes wait at their barrier, then awaited. Hosts that only monitor
 * are awaited after the others, since their monitors run until then. A trial on one host is one
 * request: started, released and awaited by its agent. A host's health snapshots ride in the same
 * answers: the before-snapshot in {@code start}'s, the after-snapshot in the one that ends its
 * trial.
 */
final class TrialJobs {
  private static final String INTERRUPTED = "interrupted before the jobs were released";

  private TrialJobs() {}

  /**
   * What each host reported. A host that cannot start fails the trial before anything runs: the
   * hosts that had started call their trial off.
   *
   * @param jobHosts the hosts of {@code requests} that run processes (the rest only monitor)
   */
  static Map<String, TrialReport> run(
      Hosts hosts, Map<String, TrialRequest> requests, Set<String> jobHosts) {
    if (requests.size() == 1 && jobHosts.containsAll(requests.keySet())) {
      // One host: nobody else to start together with, so no barrier to hold; one request.
      String host = requests.keySet().iterator().next();
      TrialReport report = hosts.session(host).runTrial(requests.get(host), hosts::stopping);
      if (report == null) {
        throw new TrialFailure(INTERRUPTED, List.of());
      }
      return Map.of(host, report);
    }
    Set<String> started = ConcurrentHashMap.newKeySet();
    Map<String, Health> before = new ConcurrentHashMap<>();
    try {
      hosts.parallel(
          requests.keySet(),
          s -> {
            Health health = s.startTrial(requests.get(s.host()));
            if (health != null) {
              before.put(s.host(), health);
            }
            started.add(s.host());
            return s;
          });
    } catch (RuntimeException e) {
      try {
        // without a release, the trial is called off: nothing ran
        hosts.parallel(started, AgentSession::endTrial);
      } catch (RuntimeException again) {
        e.addSuppressed(again);
      }
      throw e;
    }
    if (hosts.stopping()) {
      // Ctrl-C came while the hosts were starting: a cancel sent then found nothing to stop.
      hosts.parallel(started, AgentSession::endTrial);
      throw new TrialFailure(INTERRUPTED, List.of());
    }
    List<RuntimeException> failures = new ArrayList<>();
    try {
      hosts.parallel(
          requests.keySet(),
          s -> {
            s.releaseTrial();
            return s;
          });
    } catch (RuntimeException e) {
      // The released hosts run: they are awaited all the same.
      failures.add(e);
    }
    // Each host reports when its processes have ended; monitors run on until every host has,
    // then stop everywhere at once.
    List<String> withJobs = requests.keySet().stream().filter(jobHosts::contains).toList();
    List<String> withMonitors =
        requests.keySet().stream().filter(h -> !requests.get(h).monitors().isEmpty()).toList();
    Map<String, TrialReport> jobs = Map.of();
    try {
      jobs = hosts.parallel(withJobs, AgentSession::awaitTrial);
    } catch (RuntimeException e) {
      failures.add(e);
    }
    Map<String, TrialReport> monitors = Map.of();
    try {
      monitors = hosts.parallel(withMonitors, AgentSession::endTrial);
    } catch (RuntimeException e) {
      failures.add(e);
    }
    Map<String, TrialReport> reports = new LinkedHashMap<>();
    for (String host : requests.keySet()) {
      TrialReport j = jobs.get(host);
      TrialReport m = monitors.get(host);
      // The answer that ended the host's trial carries its after-snapshot: stop's when it has
      // monitors, else wait's.
      TrialReport last = m != null ? m : j;
      reports.put(
          host,
          new TrialReport(
              j == null ? 0 : j.status(),
              j == null ? List.of() : j.processes(),
              m == null ? List.of() : m.monitors(),
              before.get(host),
              last == null ? null : last.after(),
              last == null ? Map.of() : last.knobs()));
    }
    if (!failures.isEmpty()) {
      RuntimeException first = failures.get(0);
      failures.stream().skip(1).forEach(first::addSuppressed);
      throw first;
    }
    return reports;
  }
}
