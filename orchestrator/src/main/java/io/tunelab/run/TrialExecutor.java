package io.tunelab.run;

import io.tunelab.TunelabException;
import io.tunelab.agent.AgentException;
import io.tunelab.agent.AgentSession;
import io.tunelab.agent.ApplyResult;
import io.tunelab.agent.PathFailure;
import io.tunelab.knob.ApplyLine;
import io.tunelab.knob.Knob;
import io.tunelab.knob.KnobValues;
import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.TrialStep;
import io.tunelab.store.ResultStore.SettingRow;
import io.tunelab.workload.JobPlan;
import io.tunelab.workload.JobResult;
import io.tunelab.workload.Measurements;
import io.tunelab.workload.ProcessPlan;
import io.tunelab.workload.Sample;
import io.tunelab.workload.WorkloadPlan;
import io.tunelab.workload.WorkloadPlanner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one trial: apply the cell's knobs on every host at once, the before-trial steps, then the
 * workload on its role's host; returns the samples or throws {@link TrialFailure}.
 */
final class TrialExecutor {
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
    beforeTrial(vars, settings);
    WorkloadPlan plan = WorkloadPlanner.plan(matrix.workload(), vars);
    AgentSession session = hosts.session(hosts.hostOf(plan.jobs().get(0).role()));
    List<ProcessPlan> processes =
        plan.jobs().stream().map(JobPlan::processes).flatMap(List::stream).toList();
    List<JobResult> results = session.run(processes, WORKLOAD_TIMEOUT).jobs();
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
          settings.addAll(a.settings());
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
  private record HostApplied(List<SettingRow> settings, List<String> failed) {}

  private HostApplied applyOn(AgentSession session, Map<RoleKnob, String> mine) {
    if (mine.isEmpty()) {
      return new HostApplied(List.of(), List.of());
    }
    Map<Knob, String> byKnob = new LinkedHashMap<>();
    mine.forEach((k, v) -> byKnob.put(k.knob(), v));
    HostKnobState state = states.get(session.host());
    List<ApplyLine> lines = state.plan(byKnob);
    ApplyResult result = session.apply(lines);
    Map<String, String> effective = result.effective();
    List<String> failed = result.failures().stream().map(PathFailure::toString).toList();
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

  /**
   * Sets {@code knobs} back to their originals (a cell's own knobs, before its teardown); returns
   * what could not be written, or an empty text.
   */
  String reset(Collection<RoleKnob> knobs) {
    Map<RoleKnob, String> requested = new LinkedHashMap<>();
    knobs.forEach(k -> requested.put(k, ExperimentKnobs.DEFAULT));
    try {
      apply(requested);
      return "";
    } catch (TrialFailure f) {
      return f.getMessage();
    }
  }

  /** Runs {@code before_trial} in the order written; a failing command fails the trial. */
  void beforeTrial(Map<String, String> vars, List<SettingRow> settings) {
    trialSteps("before_trial", matrix.beforeTrial(), vars, settings);
  }

  /**
   * Runs {@code after_trial} in the order written, once the jobs have ended (whether they succeeded
   * or not); a failing command fails the trial.
   */
  void afterTrial(Map<String, String> vars, List<SettingRow> settings) {
    trialSteps("after_trial", matrix.afterTrial(), vars, settings);
  }

  private void trialSteps(
      String key, List<TrialStep> steps, Map<String, String> vars, List<SettingRow> settings) {
    for (TrialStep step : steps) {
      if (step.kind() == TrialStep.Kind.COMMAND) {
        try {
          Steps.run(hosts, step.command(), new LinkedHashMap<>(vars));
        } catch (AgentException e) {
          throw e;
        } catch (TunelabException e) {
          throw new TrialFailure(key + ": " + e.getMessage(), settings);
        }
        continue;
      }
      hosts.parallel(
          session -> {
            if (step.kind() == TrialStep.Kind.DROP_CACHES) {
              session.dropCaches();
            } else {
              session.sync();
            }
            return step;
          });
    }
  }
}
