package io.tunelab.run;

import io.tunelab.agent.AgentException;
import io.tunelab.plan.Cell;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.ResultStore;
import io.tunelab.store.ResultStore.TrialRef;
import io.tunelab.store.ResultStore.TrialResult;
import io.tunelab.store.TrialStatus;
import io.tunelab.workload.Sample;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/** Runs the unfinished trials of an experiment in plan order, committing each on its own. */
final class TrialLoop {
  private final ResultStore store;
  private final TrialExecutor executor;
  private final ExperimentKnobs knobs;
  private final List<Cell> cells;
  private final Map<String, String> captures;
  private final Consumer<String> out;

  TrialLoop(
      ResultStore store,
      TrialExecutor executor,
      ExperimentKnobs knobs,
      List<Cell> cells,
      Map<String, String> captures,
      Consumer<String> out) {
    this.store = store;
    this.executor = executor;
    this.knobs = knobs;
    this.cells = cells;
    this.captures = captures;
    this.out = out;
  }

  RunSummary run(long experimentId, BooleanSupplier interrupted) {
    List<TrialRef> trials = store.unfinishedTrials(experimentId);
    int ok = 0;
    int failed = 0;
    int done = 0;
    double overheadTotal = 0;
    for (TrialRef trial : trials) {
      if (interrupted.getAsBoolean()) {
        break;
      }
      Cell cell = cells.get(trial.cellOrdinal() - 1);
      store.startTrial(trial.trialId());
      long start = System.nanoTime();
      String prefix =
          String.format(
              Locale.ROOT,
              "[%d/%d] %s rep %d%s",
              done + 1,
              trials.size(),
              cell.label(),
              trial.rep(),
              trial.warmup() ? " (warm-up)" : "");
      try {
        TrialExecutor.Outcome outcome =
            executor.run(
                knobs.requested(cell, captures, trial.rep()),
                cell.trialVars(captures, trial.rep()));
        if (interrupted.getAsBoolean()) {
          break;
        }
        store.finishTrial(trial.trialId(), outcome.result());
        ok++;
        double wall = (System.nanoTime() - start) / 1e9;
        overheadTotal += wall - outcome.workloadSeconds();
        out.accept(prefix + ": " + describe(outcome.samples()));
      } catch (TrialExecutor.TrialFailure f) {
        if (interrupted.getAsBoolean()) {
          break;
        }
        store.finishTrial(trial.trialId(), f.result());
        failed++;
        out.accept(prefix + ": FAILED: " + f.getMessage());
      } catch (AgentException e) {
        // The host is gone: record the trial, then stop; the caller restores the others.
        store.finishTrial(
            trial.trialId(),
            new TrialResult(TrialStatus.FAILED, e.getMessage(), 0, List.of(), List.of()));
        throw e;
      }
      done++;
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
