package io.tunelab.run;

import io.tunelab.TunelabException;
import io.tunelab.agent.AgentException;
import io.tunelab.agent.AgentSession;
import io.tunelab.agent.ApplyResult;
import io.tunelab.agent.Health;
import io.tunelab.agent.PathFailure;
import io.tunelab.knob.ApplyLine;
import io.tunelab.knob.Knob;
import io.tunelab.knob.KnobValues;
import io.tunelab.knob.ReadResult;
import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.OnFlag;
import io.tunelab.matrix.TrialStep;
import io.tunelab.store.SettingRow;
import io.tunelab.store.TrialFlag;
import io.tunelab.store.TrialResult;
import io.tunelab.store.TrialStatus;
import io.tunelab.trace.Phase;
import io.tunelab.trace.PhaseTrace;
import io.tunelab.workload.MonitorPlan;
import io.tunelab.workload.MonitorPlanner;
import io.tunelab.workload.Sample;
import io.tunelab.workload.Transfer;
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
 * workload's jobs and monitors on their roles' hosts ({@link WorkloadPhase}) between two health
 * snapshots of every host ({@link HealthFlags}); returns the samples and flags or throws {@link
 * TrialFailure}.
 */
final class TrialExecutor {
  static final Duration WORKLOAD_TIMEOUT = Duration.ofHours(6);

  private final Matrix matrix;
  private final Hosts hosts;
  private final Map<String, HostKnobState> states;
  private final PhaseTrace trace;

  TrialExecutor(Matrix matrix, Hosts hosts, Map<String, HostKnobState> states, PhaseTrace trace) {
    this.matrix = matrix;
    this.hosts = hosts;
    this.states = states;
    this.trace = trace;
  }

  /** What the matrix says to do with a flagged trial. */
  OnFlag onFlag() {
    return matrix.onFlag();
  }

  /**
   * The outcome of a trial that succeeded.
   *
   * @param flags what the hosts' health checks found during it
   */
  record Outcome(List<SettingRow> settings, WorkloadPhase.Result workload, List<TrialFlag> flags) {
    List<Sample> samples() {
      return workload.samples();
    }

    double workloadSeconds() {
      return workload.seconds();
    }

    /** The trial as the store records it. */
    TrialResult result() {
      return new TrialResult(
          TrialStatus.OK,
          null,
          workload.seconds(),
          workload.samples(),
          settings,
          workload.monitorRows(),
          workload.processes(),
          workload.outputs(),
          flags);
    }
  }

  Outcome run(Map<RoleKnob, String> requested, Map<String, String> vars) {
    long t = trace.start();
    List<SettingRow> settings = apply(requested);
    trace.phase(Phase.APPLY, t);
    t = trace.start();
    beforeTrial(vars, settings);
    trace.phase(Phase.BEFORE_TRIAL, t);
    t = trace.start();
    WorkloadPlan plan = WorkloadPlanner.plan(matrix.workload(), vars);
    List<MonitorPlan> monitors = MonitorPlanner.plan(matrix.monitors(), vars);
    trace.phase(Phase.PLAN_WORKLOAD, t);
    Map<String, Health> before = hosts.parallel(s -> s.health(null));
    WorkloadPhase.Result ran =
        new WorkloadPhase(hosts, plan, monitors, WORKLOAD_TIMEOUT, trace).run();
    Map<String, Transfer> moved = new LinkedHashMap<>();
    Transfer.byRole(plan, ran.samples())
        .forEach((role, bytes) -> moved.merge(hosts.hostOf(role), bytes, Transfer::plus));
    List<TrialFlag> flags = checkHealth(before, moved, requested, settings);
    if (ran.failure() != null) {
      throw new TrialFailure(ran.failure(), settings, ran, flags);
    }
    return new Outcome(settings, ran, flags);
  }

  /**
   * Every host's health flags for the trial: its figures now against {@code before}, each knob
   * applied there read again against what was read when it was applied, and the bytes every host's
   * block devices moved against those the jobs ({@code moved}, per host) say they did. A drifted
   * knob is written again by the next apply.
   */
  private List<TrialFlag> checkHealth(
      Map<String, Health> before,
      Map<String, Transfer> moved,
      Map<RoleKnob, String> requested,
      List<SettingRow> settings) {
    Map<String, Map<String, Knob>> knobs = new LinkedHashMap<>();
    requested
        .keySet()
        .forEach(
            k ->
                knobs
                    .computeIfAbsent(k.host(), h -> new LinkedHashMap<>())
                    .put(k.knob().path(), k.knob()));
    Map<String, HostHealth> found =
        hosts.parallel(
            session -> {
              try {
                return hostFlags(session, before, knobs, settings);
              } catch (RuntimeException e) {
                if (hosts.lost().contains(session.host())) {
                  // Lost during the trial: the trial runs again, and says so the usual way.
                  return new HostHealth(null, List.of());
                }
                throw e;
              }
            });
    List<TrialFlag> all = new ArrayList<>();
    Map<String, Health> after = new LinkedHashMap<>();
    found.forEach(
        (host, h) -> {
          all.addAll(h.flags());
          if (h.after() != null) {
            after.put(host, h.after());
          }
        });
    all.addAll(HealthFlags.cache(matrix.cacheFlag(), moved, before, after));
    return all;
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

  /** One host's figures after the trial (null when not read) and its flags but {@code cache}. */
  private record HostHealth(Health after, List<TrialFlag> flags) {}

  /** One host's part of {@link #checkHealth}. */
  private HostHealth hostFlags(
      AgentSession session,
      Map<String, Health> before,
      Map<String, Map<String, Knob>> knobs,
      List<SettingRow> settings) {
    String host = session.host();
    Health was = before.get(host);
    List<TrialFlag> flags = new ArrayList<>();
    Health now = null;
    if (was != null) {
      now = session.health(was.cursor());
      flags.addAll(HealthFlags.of(host, was, now));
    }
    List<SettingRow> mine =
        settings.stream().filter(r -> r.host().equals(host) && r.effective() != null).toList();
    Map<String, ReadResult> read =
        session.read(mine.stream().map(SettingRow::path).distinct().toList());
    List<Knob> drifted = new ArrayList<>();
    for (SettingRow row : mine) {
      Knob knob = knobs.getOrDefault(host, Map.of()).get(row.path());
      if (knob == null) {
        continue;
      }
      ReadResult value = read.get(row.path());
      String after =
          value == null || value.state() == ReadResult.State.MISSING
              ? null
              : KnobValues.normalize(knob, value.raw());
      TrialFlag drift = HealthFlags.drift(host, row.knob(), row.effective(), after);
      if (drift != null) {
        flags.add(drift);
        drifted.add(knob);
      }
    }
    if (!drifted.isEmpty() && states.containsKey(host)) {
      states.get(host).forget(drifted);
    }
    return new HostHealth(now, flags);
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
