package io.tunelab.run;

import io.tunelab.agent.AgentException;
import io.tunelab.agent.AgentResponse;
import io.tunelab.agent.AgentSession;
import io.tunelab.knob.ApplyLine;
import io.tunelab.knob.Knob;
import io.tunelab.knob.KnobValues;
import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.TrialStep;
import io.tunelab.store.ResultStore.Sample;
import io.tunelab.store.ResultStore.SettingRow;
import io.tunelab.workload.JobPlan;
import io.tunelab.workload.JobResult;
import io.tunelab.workload.Measurements;
import io.tunelab.workload.ProcessPlan;
import io.tunelab.workload.WorkloadPlan;
import io.tunelab.workload.WorkloadPlanner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one trial: apply the cell's knobs on every host at once, the before-trial steps, then the
 * workload on its role's host; returns the samples or throws {@link TrialFailure}.
 */
final class TrialExecutor {
  private static final Duration PHASE_TIMEOUT = Duration.ofMinutes(5);
  static final Duration WORKLOAD_TIMEOUT = Duration.ofHours(6);

  private final Matrix matrix;
  private final Hosts hosts;
  private final Map<String, HostKnobState> states;

  TrialExecutor(Matrix matrix, Hosts hosts, Map<String, HostKnobState> states) {
    this.matrix = matrix;
    this.hosts = hosts;
    this.states = states;
  }

  /** A trial that ran but failed; its settings are kept for the record. */
  static final class TrialFailure extends RuntimeException {
    final List<SettingRow> settings;

    TrialFailure(String message, List<SettingRow> settings) {
      super(message);
      this.settings = settings;
    }
  }

  /** The outcome of a trial that succeeded. */
  record Outcome(List<Sample> samples, List<SettingRow> settings, double workloadSeconds) {}

  Outcome run(Map<RoleKnob, String> requested, Map<String, String> vars) {
    List<SettingRow> settings = apply(requested);
    beforeTrial();
    WorkloadPlan plan = WorkloadPlanner.plan(matrix.workload(), vars);
    AgentSession session = hosts.session(hosts.hostOf(plan.jobs().get(0).role()));
    List<ProcessPlan> processes =
        plan.jobs().stream().map(JobPlan::processes).flatMap(List::stream).toList();
    List<JobResult> results = runJobs(session, processes);
    for (JobResult job : results) {
      if (job.exitCode() != 0) {
        String last =
            job.stderr().isEmpty() ? "" : ": " + job.stderr().get(job.stderr().size() - 1);
        String why = job.exitCode() == 124 ? "timed out" : "exited " + job.exitCode();
        throw new TrialFailure(
            "host " + session.host() + ": workload " + job.name() + " " + why + last, settings);
      }
    }
    try {
      List<Sample> samples = Measurements.of(plan, results);
      double seconds = results.stream().mapToDouble(JobResult::hostSeconds).max().orElse(0);
      return new Outcome(samples, settings, seconds);
    } catch (IllegalStateException e) {
      throw new TrialFailure("host " + session.host() + ": " + e.getMessage(), settings);
    }
  }

  private List<SettingRow> apply(Map<RoleKnob, String> requested) {
    Map<String, Map<RoleKnob, String>> byHost = new LinkedHashMap<>();
    requested.forEach(
        (k, v) -> byHost.computeIfAbsent(k.host(), h -> new LinkedHashMap<>()).put(k, v));
    Map<String, HostApplied> applied =
        hosts.parallel(s -> applyOn(s, byHost.getOrDefault(s.host(), Map.of())));
    List<SettingRow> settings = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    applied.forEach(
        (host, a) -> {
          settings.addAll(a.rows());
          if (!a.failed().isEmpty()) {
            failures.add("host " + host + ": cannot write " + String.join("; ", a.failed()));
          }
        });
    if (!failures.isEmpty()) {
      throw new TrialFailure(String.join("; ", failures), settings);
    }
    return settings;
  }

  /** One host's part of a trial's apply phase: its settings rows and its failed writes. */
  private record HostApplied(List<SettingRow> rows, List<String> failed) {}

  private HostApplied applyOn(AgentSession session, Map<RoleKnob, String> mine) {
    if (mine.isEmpty()) {
      return new HostApplied(List.of(), List.of());
    }
    Map<Knob, String> byKnob = new LinkedHashMap<>();
    mine.forEach((k, v) -> byKnob.put(k.knob(), v));
    HostKnobState state = states.get(session.host());
    List<ApplyLine> lines = state.plan(byKnob);
    AgentResponse response =
        session.request("apply", lines.stream().map(ApplyLine::wire).toList(), PHASE_TIMEOUT);
    Map<String, String> effective = new LinkedHashMap<>();
    response.rows("eff", 3).forEach(r -> effective.put(r[1], r.length > 2 ? r[2] : ""));
    List<String> failed = new ArrayList<>();
    response.rows("fail", 3).forEach(r -> failed.add(r[1] + ": " + (r.length > 2 ? r[2] : "")));
    state.applied(lines, effective, !failed.isEmpty());
    List<String> written =
        lines.stream().filter(l -> l.op() == ApplyLine.Op.SET).map(ApplyLine::path).toList();
    List<SettingRow> rows = new ArrayList<>();
    mine.forEach(
        (rk, value) -> {
          Knob knob = rk.knob();
          String raw = effective.get(knob.path());
          rows.add(
              new SettingRow(
                  rk.role(),
                  session.host(),
                  knob.name(),
                  knob.path(),
                  value,
                  raw == null ? null : KnobValues.normalize(knob, raw),
                  state.original(knob.path()),
                  written.contains(knob.path())));
        });
    return new HostApplied(rows, failed);
  }

  private void beforeTrial() {
    for (TrialStep step : matrix.beforeTrial()) {
      if (step.kind() == TrialStep.Kind.COMMAND) {
        continue;
      }
      String verb = step.kind() == TrialStep.Kind.DROP_CACHES ? "drop-caches" : "sync";
      hosts.parallel(session -> session.require(verb, List.of(), PHASE_TIMEOUT));
    }
  }

  private static List<JobResult> runJobs(AgentSession session, List<ProcessPlan> jobs) {
    List<String> payload = new ArrayList<>();
    payload.add("timeout\t" + WORKLOAD_TIMEOUT.toSeconds());
    for (ProcessPlan job : jobs) {
      payload.add("job\t" + job.name());
      job.argv().forEach(a -> payload.add("arg\t" + a));
    }
    AgentResponse response =
        session.request("run", payload, WORKLOAD_TIMEOUT.plus(Duration.ofMinutes(1)));
    Map<String, List<String>> out = new LinkedHashMap<>();
    Map<String, List<String>> err = new LinkedHashMap<>();
    response
        .rows("out", 3)
        .forEach(
            r -> out.computeIfAbsent(r[1], n -> new ArrayList<>()).add(r.length > 2 ? r[2] : ""));
    response
        .rows("err", 3)
        .forEach(
            r -> err.computeIfAbsent(r[1], n -> new ArrayList<>()).add(r.length > 2 ? r[2] : ""));
    List<JobResult> results = new ArrayList<>();
    for (String[] r : response.rows("job", 5)) {
      results.add(
          new JobResult(
              r[1],
              Integer.parseInt(r[2]),
              Long.parseLong(r[3]),
              Long.parseLong(r[4]),
              out.getOrDefault(r[1], List.of()),
              err.getOrDefault(r[1], List.of())));
    }
    if (results.size() != jobs.size()) {
      throw new AgentException(
          session.host(),
          "'run' reported "
              + results.size()
              + " of "
              + jobs.size()
              + " jobs"
              + session.stderrSuffix());
    }
    return results;
  }
}
