package io.tunelab.run;

import io.tunelab.agent.AgentException;
import io.tunelab.matrix.MatrixException;
import io.tunelab.matrix.OnFlag;
import io.tunelab.plan.Cell;
import io.tunelab.store.Attempt;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.RunStore;
import io.tunelab.store.SettingRow;
import io.tunelab.store.TrialCommit;
import io.tunelab.store.TrialFlag;
import io.tunelab.store.TrialRef;
import io.tunelab.store.TrialResult;
import io.tunelab.store.TrialStatus;
import io.tunelab.trace.Phase;
import io.tunelab.trace.PhaseTrace;
import io.tunelab.workload.Sample;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Runs the unfinished trials of an experiment in plan order, committing each on its own; sets each
 * cell up before its trials, unless the cell before left it set up, and tears it down after them
 * ({@link CellVisits}), boots hosts into the kernel a trial needs ({@link HostBoots}), and runs
 * {@code after_trial} once the jobs have ended, whatever their outcome.
 */
final class TrialLoop {
  private final RunStore store;
  private final HostStates states;
  private final TrialExecutor executor;
  private final CellSteps cellSteps;
  private final HostRecovery recovery;
  private final ExperimentKnobs knobs;
  private final List<Cell> cells;
  private final RunListener listener;
  private final PhaseTrace trace;
  private final HostBoots boots;
  private final CellTargets targets;

  /** The parts of a run the loop drives. */
  record Parts(
      TrialExecutor executor,
      HostRecovery recovery,
      CellSteps cellSteps,
      HostBoots boots,
      ExperimentKnobs knobs,
      List<Cell> cells,
      CellTargets targets) {}

  TrialLoop(RunContext run, Parts parts, RunListener listener) {
    this.store = run.store();
    this.states = run.states();
    this.trace = run.trace();
    this.executor = parts.executor();
    this.recovery = parts.recovery();
    this.cellSteps = parts.cellSteps();
    this.boots = parts.boots();
    this.knobs = parts.knobs();
    this.cells = parts.cells();
    this.targets = parts.targets();
    this.listener = listener;
  }

  /**
   * Runs the unfinished trials until done, {@code interrupted} (the current trial is dropped and
   * runs again on resume) or {@code timeUp} (checked between trials only: the current one always
   * ends); the cell still set up at the end (also after a failure or Ctrl-C) is torn down before
   * this returns. {@code planned} is the trials to run when known (a plan just stored), else null:
   * they are read from the store.
   */
  RunSummary run(
      long experimentId,
      List<TrialRef> planned,
      BooleanSupplier interrupted,
      BooleanSupplier timeUp) {
    List<TrialRef> trials = planned != null ? planned : store.unfinishedTrials(experimentId);
    for (String settled : targets.settle(trials)) {
      listener.runEvent(settled);
    }
    int total = (int) trials.stream().filter(t -> !targets.skips(t)).count();
    int ok = 0;
    int failed = 0;
    int done = 0;
    double overheadTotal = 0;
    CellVisits visits = new CellVisits(cellSteps.values());
    listener.runStarted(experimentId, total);
    // The trial started in the commit of the one before, until it begins.
    long preStarted = -1;
    BooleanSupplier goesOn = () -> !interrupted.getAsBoolean() && !timeUp.getAsBoolean();
    try {
      for (int i = 0; i < trials.size(); i++) {
        TrialRef trial = trials.get(i);
        if (targets.skips(trial)) {
          continue;
        }
        if (interrupted.getAsBoolean()) {
          break;
        }
        if (timeUp.getAsBoolean()) {
          listener.runEvent(
              String.format(
                  Locale.ROOT,
                  "max time reached after %d of %d trial(s): the other %d are left for resume",
                  done,
                  total,
                  total - done));
          break;
        }
        Cell cell = cells.get(trial.cellOrdinal() - 1);
        String bootFailure = null;
        if (boots.needed(cell, trial.rep())) {
          // The cell is set up again on the new boot: what it made is gone with the old one.
          if (visits.end() != 0) {
            cellSteps.close();
          }
          try {
            bootFailure = boots.prepare(cell, trial.rep()).orElse(null);
          } catch (HostLost e) {
            listener.runEvent(
                "stopped: "
                    + e.getMessage()
                    + "; "
                    + store.unfinishedTrials(experimentId).size()
                    + " trial(s) left for `tunelab resume "
                    + experimentId
                    + "`");
            break;
          }
        }
        CellVisits.Due due = bootFailure == null ? visits.before(cell) : CellVisits.Due.none(null);
        if (due.teardown() != 0) {
          cellSteps.close();
        }
        String cellFailure = bootFailure != null ? bootFailure : due.failure();
        if (due.setup() != 0) {
          Optional<String> why = cellSteps.open(cell, due.kept());
          if (why.isPresent()) {
            visits.failed(why.get());
            cellSteps.close();
            cellFailure = why.get();
          }
        }
        if (interrupted.getAsBoolean()) {
          break;
        }
        RunListener.TrialStarted started =
            new RunListener.TrialStarted(done + 1, total, experimentId, trial, cell.label());
        if (cellFailure != null) {
          // Not run: its cell could not be set up.
          RunListener.TrialEnded ended =
              new RunListener.TrialEnded(started, TrialStatus.FAILED, "FAILED: " + cellFailure, 0);
          preStarted =
              finish(
                  trials,
                  i,
                  new TrialResult(TrialStatus.FAILED, cellFailure, 0, List.of(), List.of()),
                  List.of(),
                  ended,
                  goesOn);
          failed++;
          listener.trialEnded(ended);
          done++;
          continue;
        }
        trace.trial(trial.trialId());
        long t;
        if (preStarted != trial.trialId()) {
          t = trace.start();
          store.startTrial(trial.trialId());
          trace.phase(Phase.STORE_START, t);
        }
        preStarted = -1;
        t = trace.start();
        listener.trialStarted(started);
        trace.phase(Phase.LISTENER, t);
        long start = System.nanoTime();
        TrialExecutor.Outcome outcome = null;
        TrialFailure failure = null;
        List<Attempt> attempts = new ArrayList<>();
        try {
          String prefix =
              String.format(
                  Locale.ROOT, "[%d/%d] %s rep %d", done + 1, total, cell.label(), trial.rep());
          // Resolved per attempt: a cell set up again after a reboot has fresh captures.
          Supplier<TrialExecutor.Outcome> once =
              () -> {
                long r = trace.start();
                Map<RoleKnob, String> requested =
                    knobs.requested(cell, cellSteps.vars(), trial.rep());
                trace.phase(Phase.PLAN_KNOBS, r);
                return executor.run(requested, cell.trialVars(cellSteps.vars(), trial.rep()));
              };
          HostRecovery.Reopen reopen =
              rebooted -> {
                if (boots.needed(cell, trial.rep())) {
                  // It came up on the boot loader's default: boot it into the cell's release.
                  Optional<String> unbooted = boots.prepare(cell, trial.rep());
                  if (unbooted.isPresent()) {
                    return unbooted;
                  }
                }
                Optional<String> why = cellSteps.reopen(cell, rebooted);
                if (why.isPresent()) {
                  visits.failed(why.get());
                  cellSteps.close();
                }
                return why;
              };
          try {
            outcome = recovery.run(trial.trialId(), prefix, attempts::add, once, reopen);
            if (executor.onFlag() == OnFlag.RERUN
                && !outcome.flags().isEmpty()
                && !attempts.isEmpty()
                && !interrupted.getAsBoolean()) {
              // The flagged run stays on record as an attempt; the second run counts, flagged or
              // not.
              String why = "flagged: " + flagNames(outcome.flags());
              Attempt first = attempts.remove(attempts.size() - 1);
              attempts.add(new Attempt(first.startedAt(), first.finishedAt(), first.status(), why));
              listener.runEvent(prefix + ": " + why + "; running it again (on_flag: rerun)");
              outcome = recovery.run(trial.trialId(), prefix, attempts::add, once, reopen);
            }
            Optional<String> wrong = boots.wrongRelease(cell, trial.rep());
            if (wrong.isPresent()) {
              // Never measured as another kernel: a host came back on one during the last trial.
              failure = new TrialFailure(wrong.get() + ": not measured", outcome.settings());
              outcome = null;
              Attempt last = attempts.remove(attempts.size() - 1);
              attempts.add(
                  new Attempt(
                      last.startedAt(),
                      last.finishedAt(),
                      Attempt.Status.FAILED,
                      failure.getMessage()));
            }
          } catch (TrialFailure f) {
            failure = f;
          } catch (MatrixException e) {
            failure = new TrialFailure(e.getMessage(), List.of());
          }
          List<SettingRow> settings = outcome != null ? outcome.settings() : failure.settings;
          t = trace.start();
          listener.settingsApplied(started, settings);
          trace.phase(Phase.LISTENER, t);
          t = trace.start();
          try {
            executor.afterTrial(cell.trialVars(cellSteps.vars(), trial.rep()), settings);
          } catch (TrialFailure f) {
            failure =
                failure == null
                    ? f
                    : new TrialFailure(
                        failure.getMessage() + "; " + f.getMessage(), settings, failure.workload);
          }
          trace.phase(Phase.AFTER_TRIAL, t);
        } catch (HostLost e) {
          // The trial stays running and the rest pending, for resume; the caller restores.
          listener.runEvent(
              "stopped: "
                  + e.getMessage()
                  + "; "
                  + store.unfinishedTrials(experimentId).size()
                  + " trial(s) left for `tunelab resume "
                  + experimentId
                  + "` once the host is back");
          break;
        } catch (AgentException e) {
          // An agent refused a request: record the trial, then stop; the caller restores.
          TrialResult refused =
              new TrialResult(TrialStatus.FAILED, e.getMessage(), 0, List.of(), List.of());
          store.commitTrial(
              new TrialCommit(trial.trialId(), refused, attempts, null, OptionalLong.empty()));
          throw e;
        }
        if (interrupted.getAsBoolean()) {
          break;
        }
        double wall = (System.nanoTime() - start) / 1e9;
        if (failure == null) {
          RunListener.TrialEnded ended =
              new RunListener.TrialEnded(
                  started,
                  TrialStatus.OK,
                  describe(outcome.samples())
                      + (outcome.flags().isEmpty()
                          ? ""
                          : " (flagged: " + flagNames(outcome.flags()) + ")"),
                  wall);
          // An excluded trial is not among the values the rule judges.
          String reached =
              targets.judge(
                  trial,
                  executor.onFlag() == OnFlag.EXCLUDE && !outcome.flags().isEmpty()
                      ? List.of()
                      : outcome.samples());
          t = trace.start();
          preStarted = finish(trials, i, outcome.result(), attempts, ended, goesOn);
          trace.phase(Phase.STORE_FINISH, t);
          if (reached != null) {
            int skipped = targets.skipRest(trial, reached);
            total -= skipped;
            listener.runEvent(CellTargets.skipped(trial, reached, skipped));
          }
          ok++;
          overheadTotal += wall - outcome.workloadSeconds();
          t = trace.start();
          listener.trialEnded(ended);
          trace.phase(Phase.LISTENER, t);
        } else {
          RunListener.TrialEnded ended =
              new RunListener.TrialEnded(
                  started, TrialStatus.FAILED, "FAILED: " + failure.getMessage(), wall);
          preStarted = finish(trials, i, failure.result(), attempts, ended, goesOn);
          failed++;
          listener.trialEnded(ended);
        }
        done++;
      }
    } finally {
      if (preStarted != -1) {
        try {
          store.unstartTrial(preStarted);
        } catch (RuntimeException e) {
          // Left "running": still unfinished, so resume runs it all the same.
        }
      }
      if (visits.end() != 0) {
        cellSteps.close();
      }
    }
    int unfinished = store.unfinishedTrials(experimentId).size();
    ExperimentStatus status =
        interrupted.getAsBoolean() || unfinished > 0
            ? ExperimentStatus.INTERRUPTED
            : ExperimentStatus.FINISHED;
    store.setExperimentStatus(experimentId, status);
    return new RunSummary(
        experimentId,
        status.text(),
        ok,
        failed,
        unfinished,
        ok == 0 ? 0 : overheadTotal / ok * 1000);
  }

  /**
   * Commits trial {@code i}: its outcome, the attempt that ended it and its line as its {@code
   * trial} event. When the next trial follows at once (the run goes on, and it is of the same cell
   * or no cell steps come between), its start is in the same commit: one fsync'd commit per trial.
   * Returns that next trial, or -1.
   */
  private long finish(
      List<TrialRef> trials,
      int i,
      TrialResult result,
      List<Attempt> attempts,
      RunListener.TrialEnded ended,
      BooleanSupplier goesOn) {
    TrialCommit commit =
        new TrialCommit(
            trials.get(i).trialId(),
            result,
            attempts,
            ended.line(),
            OptionalLong.empty(),
            states.ran());
    long next = -1;
    if (i + 1 < trials.size() && goesOn.getAsBoolean()) {
      TrialRef following = trials.get(i + 1);
      if (!targets.skips(following)
          && (following.cellOrdinal() == trials.get(i).cellOrdinal() || !cellSteps.hasSteps())
          && !boots.needed(cells.get(following.cellOrdinal() - 1), following.rep())) {
        next = following.trialId();
        commit = commit.startingNext(next);
      }
    }
    store.commitTrial(commit);
    return next;
  }

  /** {@code dmesg on client, knob_drift on server}: each flag once per host. */
  private static String flagNames(List<TrialFlag> flags) {
    return flags.stream()
        .map(f -> f.flag() + " on " + f.host())
        .distinct()
        .collect(Collectors.joining(", "));
  }

  private static String describe(List<Sample> samples) {
    double seconds = Double.NaN;
    double mib = Double.NaN;
    for (Sample s : samples) {
      if (s.job().equals(Sample.AGGREGATE_JOB) && s.metric().equals("seconds")) {
        seconds = s.value();
      } else if (s.job().equals(Sample.AGGREGATE_JOB) && s.metric().equals("mib_per_s")) {
        mib = s.value();
      }
    }
    return Double.isNaN(mib)
        ? String.format(Locale.ROOT, "%.3f s", seconds)
        : String.format(Locale.ROOT, "%.3f s, %.1f MiB/s", seconds, mib);
  }
}
