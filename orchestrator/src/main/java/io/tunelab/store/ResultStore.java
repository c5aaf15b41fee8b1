package io.tunelab.store;

import io.tunelab.plan.Cell;
import io.tunelab.plan.ExperimentPlan;
import io.tunelab.workload.Sample;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where experiments, their plan and every trial's samples live. The whole plan is written before
 * the first trial; each trial is committed on its own, with its cell's statistics.
 */
public interface ResultStore extends AutoCloseable {

  /** Writes the experiment, its cells and all its trials (pending) in one transaction. */
  long createExperiment(ExperimentPlan plan, String toolVersion);

  /** Stores one host's facts (kernel release, boot id, cpus, mem_kb, block devices …). */
  void recordHost(long experimentId, String role, String host, Map<String, String> facts);

  /** Stores the variables captured by setup steps (replaced on resume). */
  void recordVariables(long experimentId, Map<String, String> variables);

  /**
   * Sets the status; {@code running} stamps started_at (the first time) and clears finished_at,
   * {@code finished}, {@code failed} and {@code interrupted} stamp finished_at.
   */
  void setExperimentStatus(long experimentId, ExperimentStatus status);

  /** The experiment by id, or the latest one with that name. */
  Optional<StoredExperiment> findExperiment(String idOrName);

  /** The cells of an experiment, by ordinal (as stored: parameters and knobs, no variables). */
  List<Cell> cells(long experimentId);

  /**
   * Trials not yet finished ({@code pending}, or {@code running} when interrupted), in run order.
   */
  List<TrialRef> unfinishedTrials(long experimentId);

  /** Marks a trial running. */
  void startTrial(long trialId);

  /** Commits a trial's outcome, samples and settings, and refreshes its cell's statistics. */
  void finishTrial(long trialId, TrialResult result);

  /**
   * Every experiment with its progress, oldest first (for {@code tunelab status}). Added after the
   * first cut of this interface, hence a default that only the SQLite store overrides; test doubles
   * need not.
   */
  default List<ExperimentSummary> experiments() {
    throw new UnsupportedOperationException("experiments() in " + getClass().getSimpleName());
  }

  /** The most recently created experiment (for {@code report} and {@code status} without one). */
  default Optional<StoredExperiment> latest() {
    throw new UnsupportedOperationException("latest() in " + getClass().getSimpleName());
  }

  /** The variables captured by setup steps, in the order they were recorded (for resume). */
  default Map<String, String> variables(long experimentId) {
    throw new UnsupportedOperationException("variables() in " + getClass().getSimpleName());
  }

  /** How many trials of the experiment are in each state (for exit code 1 and reports). */
  default TrialCounts trialCounts(long experimentId) {
    throw new UnsupportedOperationException("trialCounts() in " + getClass().getSimpleName());
  }

  @Override
  void close();

  /** A stored trial that still has to run. */
  record TrialRef(long trialId, long cellId, int cellOrdinal, int rep, int seq, boolean warmup) {}

  /** A stored experiment. */
  record StoredExperiment(
      long id,
      String name,
      ExperimentStatus status,
      String matrixYaml,
      String matrixPath,
      String order,
      long seed,
      int repeat,
      int warmup) {}

  /** One knob on one host as this trial ran it. */
  record SettingRow(
      String role,
      String host,
      String knob,
      String path,
      String requested,
      String effective,
      String original,
      boolean written) {}

  /** An experiment as {@code tunelab status} lists it; timestamps are ISO-8601 UTC or null. */
  record ExperimentSummary(
      long id,
      String name,
      ExperimentStatus status,
      String createdAt,
      String startedAt,
      String finishedAt,
      int cells,
      TrialCounts trials) {}

  /** What a trial produced. {@code status} is {@code ok}, {@code failed} or {@code skipped}. */
  record TrialResult(
      TrialStatus status,
      String error,
      double workloadSeconds,
      List<Sample> samples,
      List<SettingRow> settings) {}
}
