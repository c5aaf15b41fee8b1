package io.tunelab.run;

import io.tunelab.Decimals;
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
import java.util.Set;
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
    return run(
        experimentId,
        TrialSource.of(planned != null ? planned : store.unfinishedTrials(experimentId)),
        interrupted,
        timeUp);
  }

  /** As {@link #run(long, List, BooleanSupplier, BooleanSupplier)}, a batch of trials at a time. */
  RunSummary run(
      long experimentId, TrialSource source, BooleanSupplier interrupted, BooleanSupplier timeUp) {
    List<TrialRef> batch = source.next();
    for (String settled : targets.settle(batch)) {
      listener.runEvent(settled);
    }
    Pass pass = new Pass(experimentId, interrupted, timeUp);
    pass.total = source.total((int) batch.stream().filter(t -> !targets.skips(t)).count());
    listener.runStarted(experimentId, pass.total);
    try {
      // A batch drawn when time is up or Ctrl-C came stays pending, for resume.
      while (!batch.isEmpty() && pass.batch(batch)) {
        batch = source.next();
      }
    } finally {
      pass.close();
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
        pass.ok,
        pass.failed,
        unfinished,
        pass.ok == 0 ? 0 : pass.overheadTotal / pass.ok * 1000);
  }

  /** How a trial ended: its outcome when it ran, its failure when it did not pass. */
  private record Measured(
      TrialExecutor.Outcome outcome, TrialFailure failure, List<Attempt> attempts) {
    static Measured notRun(String why) {
      return new Measured(null, new TrialFailure(why, List.of()), List.of());
    }
  }

  /** One pass over the trials: its counts, the cell set up now, the trial started ahead. */
  private final class Pass {
    private final long experimentId;
    private List<TrialRef> trials = List.of();
    private final BooleanSupplier interrupted;
    private final BooleanSupplier timeUp;
    private final CellVisits visits = new CellVisits(cellSteps.values());
    private int total;
    private int ok;
    private int failed;
    private int done;
    private double overheadTotal;
    // The trial started in the commit of the one before, until it begins.
    private long preStarted = -1;

    Pass(long experimentId, BooleanSupplier interrupted, BooleanSupplier timeUp) {
      this.experimentId = experimentId;
      this.interrupted = interrupted;
      this.timeUp = timeUp;
    }

    /** Runs a batch of trials; false when the pass stops within it. */
    boolean batch(List<TrialRef> batch) {
      trials = batch;
      for (int i = 0; i < trials.size(); i++) {
        if (!step(i)) {
          return false;
        }
      }
      return true;
    }

    /** Runs trial {@code i}, or skips it; false when the pass stops here. */
    boolean step(int i) {
      TrialRef trial = trials.get(i);
      if (targets.skips(trial)) {
        return true;
      }
      if (interrupted.getAsBoolean()) {
        return false;
      }
      if (timeUp.getAsBoolean()) {
        listener.runEvent(
            String.format(
                Locale.ROOT,
                "max time reached after %d of %d trial(s): the other %d are left for resume",
                done,
                total,
                total - done));
        return false;
      }
      Cell cell = cells.get(trial.cellOrdinal() - 1);
      Optional<String> cellFailure;
      try {
        cellFailure = setUp(cell, trial);
      } catch (HostLost e) {
        stopped(e, "");
        return false;
      }
      if (interrupted.getAsBoolean()) {
        return false;
      }
      RunListener.TrialStarted started =
          new RunListener.TrialStarted(done + 1, total, experimentId, trial, cell.label());
      if (cellFailure.isPresent()) {
        // Not run: its cell could not be set up.
        end(i, started, Measured.notRun(cellFailure.get()), 0);
        return true;
      }
      begin(trial, started);
      long start = System.nanoTime();
      List<Attempt> attempts = new ArrayList<>();
      Measured measured;
      try {
        measured = measure(trial, cell, started, attempts);
      } catch (HostLost e) {
        // The trial stays running and the rest pending, for resume; the caller restores.
        stopped(e, " once the host is back");
        return false;
      } catch (AgentException e) {
        // An agent refused a request: record the trial, then stop; the caller restores.
        commit(
            i,
            new TrialResult(TrialStatus.FAILED, e.getMessage(), 0, List.of(), List.of()),
            attempts,
            null);
        throw e;
      }
      if (interrupted.getAsBoolean()) {
        return false;
      }
      end(i, started, measured, (System.nanoTime() - start) / 1e9);
      return true;
    }

    /**
     * Boots the hosts into the trial's kernel and sets its cell up when due; returns why the cell
     * could not be.
     */
    private Optional<String> setUp(Cell cell, TrialRef trial) {
      if (boots.needed(cell, trial.rep())) {
        // The cell is set up again on the new boot: what it made is gone with the old one.
        if (visits.end() != 0) {
          cellSteps.close();
        }
        Optional<String> bootFailure = boots.prepare(cell, trial.rep());
        if (bootFailure.isPresent()) {
          return bootFailure;
        }
      }
      CellVisits.Due due = visits.before(cell);
      if (due.teardown() != 0) {
        cellSteps.close();
      }
      if (due.setup() != 0) {
        Optional<String> why = cellSteps.open(cell, due.kept());
        if (why.isPresent()) {
          visits.failed(why.get());
          cellSteps.close();
          return why;
        }
      }
      return Optional.ofNullable(due.failure());
    }

    /** Marks the trial started (unless the commit before did) and tells the listener. */
    private void begin(TrialRef trial, RunListener.TrialStarted started) {
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
    }

    /**
     * Runs the trial through {@link HostRecovery} (again when {@code on_flag: rerun} asks), then
     * {@code after_trial}, whatever the outcome.
     */
    private Measured measure(
        TrialRef trial, Cell cell, RunListener.TrialStarted started, List<Attempt> attempts) {
      String prefix = "[" + (done + 1) + "/" + total + "] " + cell.label() + " rep " + trial.rep();
      // Resolved per attempt: a cell set up again after a reboot has fresh captures.
      Supplier<TrialExecutor.Outcome> once =
          () -> {
            long r = trace.start();
            Map<RoleKnob, String> requested = knobs.requested(cell, cellSteps.vars(), trial.rep());
            trace.phase(Phase.PLAN_KNOBS, r);
            return executor.run(requested, cell.trialVars(cellSteps.vars(), trial.rep()));
          };
      HostRecovery.Reopen reopen = rebooted -> reopen(cell, trial, rebooted);
      TrialExecutor.Outcome outcome = null;
      TrialFailure failure = null;
      try {
        outcome = recovery.run(trial.trialId(), prefix, attempts::add, once, reopen);
        if (executor.onFlag() == OnFlag.RERUN
            && !outcome.flags().isEmpty()
            && !attempts.isEmpty()
            && !interrupted.getAsBoolean()) {
          // The flagged run stays on record as an attempt; the second run counts, flagged or not.
          String why = "flagged: " + flagNames(outcome.flags());
          relabelLast(attempts, null, why);
          listener.runEvent(prefix + ": " + why + "; running it again (on_flag: rerun)");
          outcome = recovery.run(trial.trialId(), prefix, attempts::add, once, reopen);
        }
        Optional<String> wrong = boots.wrongRelease(cell, trial.rep());
        if (wrong.isPresent()) {
          // Never measured as another kernel: a host came back on one during the last trial.
          failure = new TrialFailure(wrong.get() + ": not measured", outcome.settings());
          outcome = null;
          relabelLast(attempts, Attempt.Status.FAILED, failure.getMessage());
        }
      } catch (TrialFailure f) {
        failure = f;
      } catch (MatrixException e) {
        failure = new TrialFailure(e.getMessage(), List.of());
      }
      List<SettingRow> settings = outcome != null ? outcome.settings() : failure.settings;
      long t = trace.start();
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
      return new Measured(outcome, failure, attempts);
    }

    /** Sets the open cell up again after hosts rebooted mid-trial; returns why it could not be. */
    private Optional<String> reopen(Cell cell, TrialRef trial, Set<String> rebooted) {
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
    }

    /** Commits the trial as it ended, counts it and tells the listener. */
    private void end(int i, RunListener.TrialStarted started, Measured measured, double wall) {
      TrialRef trial = trials.get(i);
      if (measured.failure() != null) {
        RunListener.TrialEnded ended =
            new RunListener.TrialEnded(
                started, TrialStatus.FAILED, "FAILED: " + measured.failure().getMessage(), wall);
        preStarted = commit(i, measured.failure().result(), measured.attempts(), ended.line());
        failed++;
        listener.trialEnded(ended);
        done++;
        return;
      }
      TrialExecutor.Outcome outcome = measured.outcome();
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
      long t = trace.start();
      preStarted = commit(i, outcome.result(), measured.attempts(), ended.line());
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
      done++;
    }

    /**
     * The one way a trial is committed: its result, the attempts that ended it and its line as its
     * {@code trial} event. When the next trial follows at once (the pass goes on, and it is of the
     * same cell or no cell steps come between), its start is in the same commit: one fsync'd commit
     * per trial. A trial without a line (an agent refused it) ends the pass: nothing follows it.
     * Returns the trial started with it, or -1.
     */
    private long commit(int i, TrialResult result, List<Attempt> attempts, String line) {
      TrialCommit commit =
          new TrialCommit(
              trials.get(i).trialId(), result, attempts, line, OptionalLong.empty(), states.ran());
      long next = -1;
      if (line != null && i + 1 < trials.size() && goesOn()) {
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

    private boolean goesOn() {
      return !interrupted.getAsBoolean() && !timeUp.getAsBoolean();
    }

    private void stopped(HostLost e, String until) {
      listener.runEvent(
          "stopped: "
              + e.getMessage()
              + "; "
              + store.unfinishedTrials(experimentId).size()
              + " trial(s) left for `tunelab resume "
              + experimentId
              + "`"
              + until);
    }

    /** Leaves a trial started ahead unstarted, and tears down the cell still set up. */
    void close() {
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
  }

  /** Replaces the last attempt's status (when given) and reason. */
  private static void relabelLast(List<Attempt> attempts, Attempt.Status status, String reason) {
    Attempt last = attempts.remove(attempts.size() - 1);
    attempts.add(
        new Attempt(
            last.startedAt(), last.finishedAt(), status != null ? status : last.status(), reason));
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
    // Not String.format: in a run's first hundreds of trials it is not compiled yet, and costs
    // a trial about a third of a millisecond (docs/performance.md).
    String line = Decimals.of(seconds, 3) + " s";
    return Double.isNaN(mib) ? line : line + ", " + Decimals.of(mib, 1) + " MiB/s";
  }
}
