package io.tunelab.run;

import io.tunelab.TunelabException;
import io.tunelab.agent.AgentException;
import io.tunelab.agent.AgentSession;
import io.tunelab.agent.ApplyResult;
import io.tunelab.agent.Health;
import io.tunelab.agent.HealthReading;
import io.tunelab.agent.PathFailure;
import io.tunelab.agent.TrialReport;
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
import java.util.Set;

/**
 * Runs one trial: apply the cell's knobs on every host at once, the before-trial steps, then the
 * workload's jobs and monitors on their roles' hosts ({@link WorkloadPhase}) between two health
 * snapshots of every host, taken by its agent inside the trial's own requests where it has one
 * ({@link HealthFlags}); returns the samples and flags or throws {@link TrialFailure}.
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
    // Planned first: which hosts run the trial's processes and monitors decides where each
    // host's health snapshots ride.
    long t = trace.start();
    WorkloadPlan plan = WorkloadPlanner.plan(matrix.workload(), vars);
    List<MonitorPlan> monitors = MonitorPlanner.plan(matrix.monitors(), vars);
    Set<String> inTrial = WorkloadPhase.hostsOf(hosts, plan, monitors);
    List<String> outside =
        hosts.all().stream().map(AgentSession::host).filter(h -> !inTrial.contains(h)).toList();
    trace.phase(Phase.PLAN_WORKLOAD, t);
    // A host that runs a process or a monitor of the trial takes its snapshots and reads its
    // knobs back inside the trial's own requests. Any other has none to ride in: its
    // before-snapshot comes with its apply when nothing runs between the apply and the trial
    // (before_trial steps sync and drop caches), else with a request of its own; its
    // after-snapshot and read-back with one request once the trial has ended.
    Set<String> snapshotInApply = matrix.beforeTrial().isEmpty() ? Set.copyOf(outside) : Set.of();
    t = trace.start();
    Applied applied = apply(requested, snapshotInApply);
    List<SettingRow> settings = applied.settings();
    trace.phase(Phase.APPLY, t);
    t = trace.start();
    beforeTrial(vars, settings);
    trace.phase(Phase.BEFORE_TRIAL, t);
    Map<String, List<String>> checks = readBack(settings);
    Map<String, Health> outsideBefore = new LinkedHashMap<>(applied.before());
    List<String> unsnapped = outside.stream().filter(h -> !outsideBefore.containsKey(h)).toList();
    outsideBefore.putAll(hosts.parallel(unsnapped, s -> s.health(null)));
    WorkloadPhase.Result ran =
        new WorkloadPhase(hosts, plan, monitors, WORKLOAD_TIMEOUT, trace, checks).run();
    Map<String, Transfer> moved = new LinkedHashMap<>();
    Transfer.byRole(plan, ran.samples())
        .forEach((role, bytes) -> moved.merge(hosts.hostOf(role), bytes, Transfer::plus));
    List<TrialFlag> flags =
        checkHealth(outsideBefore, ran.reports(), checks, moved, requested, settings);
    if (ran.failure() != null) {
      throw new TrialFailure(ran.failure(), settings, ran, flags);
    }
    return new Outcome(settings, ran, flags);
  }

  /** Per host, the knob paths read back after the trial: those read when they were applied. */
  private static Map<String, List<String>> readBack(List<SettingRow> settings) {
    Map<String, List<String>> paths = new LinkedHashMap<>();
    for (SettingRow row : settings) {
      if (row.effective() != null) {
        List<String> mine = paths.computeIfAbsent(row.host(), h -> new ArrayList<>());
        if (!mine.contains(row.path())) {
          mine.add(row.path());
        }
      }
    }
    return paths;
  }

  /**
   * Every host's health flags for the trial: its figures after the trial against those before it,
   * each knob applied there read again against what was read when it was applied, and the bytes
   * every host's block devices moved against those the jobs ({@code moved}, per host) say they did.
   * The hosts of the trial's processes and monitors answered all of it in {@code reports}; the
   * others ({@code outsideBefore}) are asked now. A drifted knob is written again by the next
   * apply.
   */
  private List<TrialFlag> checkHealth(
      Map<String, Health> outsideBefore,
      Map<String, TrialReport> reports,
      Map<String, List<String>> checks,
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
    Map<String, HostHealth> outsideFound =
        hosts.parallel(
            outsideBefore.keySet(),
            session -> {
              String host = session.host();
              try {
                HealthReading now =
                    session.health(
                        outsideBefore.get(host).cursor(), checks.getOrDefault(host, List.of()));
                return new HostHealth(now.health(), now.knobs());
              } catch (RuntimeException e) {
                if (hosts.lost().contains(host)) {
                  // Lost during the trial: the trial runs again, and says so the usual way.
                  return new HostHealth(null, null);
                }
                throw e;
              }
            });
    List<TrialFlag> all = new ArrayList<>();
    Map<String, Health> before = new LinkedHashMap<>();
    Map<String, Health> after = new LinkedHashMap<>();
    for (AgentSession session : hosts.all()) {
      String host = session.host();
      Health was;
      HostHealth now;
      if (outsideBefore.containsKey(host)) {
        was = outsideBefore.get(host);
        now = outsideFound.get(host);
      } else {
        TrialReport report = reports.get(host);
        if (report == null) {
          continue;
        }
        was = report.before();
        now = new HostHealth(report.after(), report.knobs());
      }
      if (was == null) {
        continue;
      }
      before.put(host, was);
      if (now.after() == null) {
        continue;
      }
      after.put(host, now.after());
      all.addAll(HealthFlags.of(host, was, now.after()));
      all.addAll(drift(host, knobs.getOrDefault(host, Map.of()), settings, now.knobs()));
    }
    all.addAll(HealthFlags.cache(matrix.cacheFlag(), moved, before, after));
    return all;
  }

  /** One host's figures after the trial (null when not read) and its knobs read back then. */
  private record HostHealth(Health after, Map<String, ReadResult> knobs) {}

  /**
   * The {@code knob_drift} flags of {@code host}: each of its settings read back ({@code read})
   * against what was read when it was applied. A drifted knob is forgotten, so the next apply
   * writes it again.
   */
  private List<TrialFlag> drift(
      String host,
      Map<String, Knob> knobs,
      List<SettingRow> settings,
      Map<String, ReadResult> read) {
    List<TrialFlag> flags = new ArrayList<>();
    List<Knob> drifted = new ArrayList<>();
    for (SettingRow row : settings) {
      if (!row.host().equals(host) || row.effective() == null) {
        continue;
      }
      Knob knob = knobs.get(row.path());
      if (knob == null) {
        continue;
      }
      ReadResult value = read.get(row.path());
      String after =
          value == null || value.state() == ReadResult.State.MISSING
              ? null
              : KnobValues.normalize(knob, value.raw());
      TrialFlag flag = HealthFlags.drift(host, row.knob(), row.effective(), after);
      if (flag != null) {
        flags.add(flag);
        drifted.add(knob);
      }
    }
    if (!drifted.isEmpty() && states.containsKey(host)) {
      states.get(host).forget(drifted);
    }
    return flags;
  }

  /** What a trial's apply phase did: its settings rows, and the hosts' health when asked for. */
  private record Applied(List<SettingRow> settings, Map<String, Health> before) {}

  /**
   * Applies {@code requested} on every host at once; the hosts of {@code snapshot} that apply
   * something also answer with their health figures.
   */
  private Applied apply(Map<RoleKnob, String> requested, Set<String> snapshot) {
    if (requested.isEmpty()) {
      // No host has a line to send (a snapshot rides only in an apply that is sent), and a
      // hand-off to each host's thread and back costs a trial without knobs a wake-up each.
      return new Applied(List.of(), Map.of());
    }
    Map<String, Map<RoleKnob, String>> byHost = new LinkedHashMap<>();
    requested.forEach(
        (k, v) -> byHost.computeIfAbsent(k.host(), h -> new LinkedHashMap<>()).put(k, v));
    Map<String, HostApplied> applied =
        hosts.parallel(
            s -> applyOn(s, byHost.getOrDefault(s.host(), Map.of()), snapshot.contains(s.host())));
    List<SettingRow> settings = new ArrayList<>();
    Map<String, Health> before = new LinkedHashMap<>();
    List<String> failures = new ArrayList<>();
    applied.forEach(
        (host, a) -> {
          settings.addAll(a.settings());
          if (a.before() != null) {
            before.put(host, a.before());
          }
          if (!a.failed().isEmpty()) {
            failures.add("host " + host + ": cannot write " + String.join("; ", a.failed()));
          }
        });
    if (!failures.isEmpty()) {
      throw new TrialFailure(String.join("; ", failures), settings);
    }
    return new Applied(settings, before);
  }

  /** One host's part of a trial's apply phase: its settings rows and its failed writes. */
  private record HostApplied(List<SettingRow> settings, List<String> failed, Health before) {}

  private HostApplied applyOn(AgentSession session, Map<RoleKnob, String> mine, boolean snapshot) {
    if (mine.isEmpty()) {
      return new HostApplied(List.of(), List.of(), null);
    }
    Map<Knob, String> byKnob = new LinkedHashMap<>();
    mine.forEach((k, v) -> byKnob.put(k.knob(), v));
    HostKnobState state = states.get(session.host());
    List<ApplyLine> lines = state.plan(byKnob);
    ApplyResult result = session.apply(lines, snapshot);
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
    return new HostApplied(rows, failed, result.before());
  }

  /**
   * Sets {@code knobs} back to their originals (a cell's own knobs, before its teardown); returns
   * what could not be written, or an empty text.
   */
  String reset(Collection<RoleKnob> knobs) {
    Map<RoleKnob, String> requested = new LinkedHashMap<>();
    knobs.forEach(k -> requested.put(k, ExperimentKnobs.DEFAULT));
    try {
      apply(requested, Set.of());
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
