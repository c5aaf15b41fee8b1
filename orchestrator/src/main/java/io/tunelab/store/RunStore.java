package io.tunelab.store;

import io.tunelab.plan.Cell;
import io.tunelab.plan.ExperimentPlan;
import io.tunelab.plan.Trial;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a run writes to the store, and reads back to go on (a resume, a restore): the whole plan
 * before the first trial, then one {@link TrialCommit} per trial.
 */
public interface RunStore extends AutoCloseable {

  /** Where the store is, as messages name it (an SQLite store: its file's absolute path). */
  String location();

  /** Writes the experiment, its cells and all its trials (pending) in one transaction. */
  long createExperiment(ExperimentPlan plan, String toolVersion);

  /**
   * As {@link #createExperiment}, returning also what {@link #unfinishedTrials} would then read:
   * every trial of the plan, in run order.
   */
  default StoredPlan storePlan(ExperimentPlan plan, String toolVersion) {
    long id = createExperiment(plan, toolVersion);
    return new StoredPlan(id, unfinishedTrials(id));
  }

  /**
   * Adds pending trials to a stored experiment, after its last, with the cells among {@code cells}
   * it does not hold yet (by ordinal), in one transaction: a search's next round. Returns the
   * trials as {@link #unfinishedTrials} reads them; a trial of a cell and repetition already stored
   * is that one, not a second.
   */
  List<TrialRef> appendTrials(long experimentId, List<Cell> cells, List<Trial> trials);

  /**
   * Records each candidate's state after a search's {@code round}, for the cells stored by then; a
   * state recorded before for the same round and cell is replaced (a retried commit, a winner).
   */
  void recordSearchRound(long experimentId, int round, List<SearchState> states);

  /** Stores one host's facts (kernel release, boot id, cpus, mem_kb, block devices …). */
  void recordHost(long experimentId, String role, String host, Map<String, String> facts);

  /** Stores the hosts the experiment runs on, per role (replaced on resume). */
  void recordTestbed(long experimentId, List<TestbedHost> hosts);

  /** Stores the variables captured by setup steps (replaced on resume). */
  void recordVariables(long experimentId, Map<String, String> variables);

  /**
   * Sets the status; {@code running} stamps started_at (the first time) and clears finished_at,
   * {@code finished}, {@code failed} and {@code interrupted} stamp finished_at.
   */
  void setExperimentStatus(long experimentId, ExperimentStatus status);

  /** The experiment by id, or the latest one with that name. */
  Optional<StoredExperiment> findExperiment(String idOrName);

  /** Every experiment with its progress, oldest first. */
  List<ExperimentSummary> experiments();

  /** The cells of an experiment, by ordinal (as stored: parameters and knobs, no variables). */
  List<Cell> cells(long experimentId);

  /**
   * Trials not yet finished ({@code pending}, or {@code running} when interrupted), in run order.
   */
  List<TrialRef> unfinishedTrials(long experimentId);

  /** The variables captured by setup steps, in the order they were recorded (for resume). */
  Map<String, String> variables(long experimentId);

  /** Marks a trial running. */
  void startTrial(long trialId);

  /**
   * Stores the end of a trial in one transaction: its outcome, samples and settings with its cell's
   * refreshed statistics, the attempts and the event line it carries, and the next trial's start
   * when it has one. A commit that fails leaves nothing of it behind; one the disk has no room for
   * is kept aside for {@link #importKeptTrials}, and fails with exit code 3 saying where.
   */
  void commitTrial(TrialCommit commit);

  /** Sets a trial started by a {@link TrialCommit#startNext} back to pending: it did not run. */
  void unstartTrial(long trialId);

  /**
   * The values of {@code job}'s {@code metric} that a cell's statistics are computed from (its ok,
   * measured trials), in repetition order.
   */
  double[] statisticsValues(long cellId, String job, String metric);

  /**
   * Every finished (ok or failed) trial of the experiment with its value of {@code job}'s {@code
   * metric} (the mean of its samples of it), in run order; a trial the statistics leave out has
   * NaN.
   */
  List<TrialValue> trialValues(long experimentId, String job, String metric);

  /**
   * Marks the cell's pending trials {@code skipped} with {@code reason} as their error: the cell
   * needs no more. Returns how many.
   */
  int skipPendingTrials(long cellId, String reason);

  /**
   * Records one attempt at a trial on its own, numbered after those recorded for it before (by this
   * run or an earlier one); returns its number. For the attempts a lost host ended: the one that
   * ends the trial goes with its {@link TrialCommit}.
   */
  int recordAttempt(long trialId, Attempt attempt);

  /**
   * Records the cell whose {@code cell_setup} has begun and whose {@code cell_teardown} has not
   * run, with what its steps captured so far, replacing the one recorded before; null forgets it
   * (its teardown ran). A controller that dies leaves it for {@code resume} and {@code restore}.
   */
  void recordOpenCell(long experimentId, OpenCell cell);

  /** The cell recorded by {@link #recordOpenCell}, if any. */
  Optional<OpenCell> openCell(long experimentId);

  /**
   * Keeps something that happened during the experiment's run, for {@code tunelab status} and SQL
   * (table {@code events}); {@code host} is null unless {@code kind} is {@code host}.
   */
  void recordEvent(long experimentId, String kind, String host, String message);

  /**
   * Records that {@code host} is asked to boot (state {@code booting}), or for {@link
   * Boot.Reason#START} where it starts (state {@code up}); returns the boot's id.
   */
  long startBoot(
      long experimentId,
      String host,
      String release,
      String method,
      Boot.Reason reason,
      int round,
      String bootIdBefore);

  /** Records how boot {@code bootId} ended: {@code up} with the new boot id, or {@code failed}. */
  void finishBoot(long bootId, Boot.State state, String bootIdAfter, String error);

  /** The experiment's boots and host starts, oldest first. */
  List<Boot> boots(long experimentId);

  /**
   * Holds a little room for the trial commits a full disk refuses, given back when the store
   * closes; false when there is not even that.
   */
  boolean reserveForKeptTrials();

  /**
   * Stores the trial commits of the experiment that a full or failing disk kept aside, each once;
   * returns one line per commit, saying what became of it.
   */
  List<String> importKeptTrials(long experimentId);

  @Override
  void close();
}
