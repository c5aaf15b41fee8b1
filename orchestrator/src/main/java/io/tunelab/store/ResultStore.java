package io.tunelab.store;

import io.tunelab.plan.Cell;
import io.tunelab.plan.ExperimentPlan;
import io.tunelab.workload.Sample;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Where experiments, their plan and every trial's samples live. The whole plan is written before
 * the first trial; each trial is committed on its own, with its cell's statistics.
 */
public interface ResultStore extends AutoCloseable {

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

  /**
   * Stores the end of a trial in one transaction: its outcome, samples and settings with its cell's
   * refreshed statistics, the attempts and the event line it carries, and the next trial's start
   * when it has one. A commit that fails leaves nothing of it behind.
   */
  void commitTrial(TrialCommit commit);

  /**
   * Sets a trial started by a {@link TrialCommit#startNext} back to pending when the run stopped
   * before it ran. A no-op by default, for stores that do not keep a trial's start.
   */
  default void unstartTrial(long trialId) {}

  /**
   * Records one attempt at a trial on its own, numbered after those recorded for it before (by this
   * run or an earlier one); returns its number. For the attempts a lost host ended: the one that
   * ends the trial goes with its {@link TrialCommit}. Added with table {@code trial_attempts},
   * hence a default that only the SQLite store overrides.
   */
  default int recordAttempt(long trialId, Attempt attempt) {
    throw new UnsupportedOperationException("recordAttempt() in " + getClass().getSimpleName());
  }

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

  /**
   * Records the cell whose {@code cell_setup} has begun and whose {@code cell_teardown} has not
   * run, with what its steps captured so far, replacing the one recorded before; null forgets it
   * (its teardown ran). A controller that dies leaves it for {@code resume} and {@code restore}.
   */
  default void recordOpenCell(long experimentId, OpenCell cell) {
    throw new UnsupportedOperationException("recordOpenCell() in " + getClass().getSimpleName());
  }

  /** The cell recorded by {@link #recordOpenCell}, if any. */
  default Optional<OpenCell> openCell(long experimentId) {
    throw new UnsupportedOperationException("openCell() in " + getClass().getSimpleName());
  }

  /** How many trials of the experiment are in each state (for exit code 1 and reports). */
  default TrialCounts trialCounts(long experimentId) {
    throw new UnsupportedOperationException("trialCounts() in " + getClass().getSimpleName());
  }

  /**
   * Keeps something that happened during the experiment's run, for {@code tunelab status} and SQL
   * (table {@code events}); {@code host} is null unless {@code kind} is {@code host}.
   */
  default void recordEvent(long experimentId, String kind, String host, String message) {
    throw new UnsupportedOperationException("recordEvent() in " + getClass().getSimpleName());
  }

  @Override
  void close();

  /** A cell set up and not yet torn down: its ordinal and its {@code cell_setup} captures. */
  record OpenCell(int cellOrdinal, Map<String, String> captures) {}

  /**
   * One attempt at a trial (table {@code trial_attempts}).
   *
   * @param error why it failed or was lost, with what happened to the host (a reboot); null when ok
   */
  record Attempt(Instant startedAt, Instant finishedAt, Status status, String error) {
    /** How an attempt ended: as the trial would, or {@code lost} with its host. */
    public enum Status {
      OK,
      FAILED,
      /** A host was lost during it: the trial runs again, or is left to {@code resume}. */
      LOST;

      /** As {@code trial_attempts.status} spells it. */
      public String text() {
        return name().toLowerCase(Locale.ROOT);
      }
    }
  }

  /** A stored trial that still has to run. */
  record TrialRef(long trialId, long cellId, int cellOrdinal, int rep, int seq, boolean warmup) {}

  /** A new experiment's id and its trials, all pending, in run order. */
  record StoredPlan(long experimentId, List<TrialRef> trials) {}

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

  /**
   * What a trial produced. {@code status} is {@code ok}, {@code failed} or {@code skipped}.
   *
   * @param monitorRows every interval row of every monitor (table {@code monitor_samples})
   * @param processes how each workload process ran: host, effective scheduling, exit
   * @param outputs raw tool output kept for later questions (fio's JSON), stored compressed
   */
  record TrialResult(
      TrialStatus status,
      String error,
      double workloadSeconds,
      List<Sample> samples,
      List<SettingRow> settings,
      List<MonitorSample> monitorRows,
      List<ProcessRecord> processes,
      List<TrialOutput> outputs) {

    /** A result without monitors, process records or kept output. */
    public TrialResult(
        TrialStatus status,
        String error,
        double workloadSeconds,
        List<Sample> samples,
        List<SettingRow> settings) {
      this(status, error, workloadSeconds, samples, settings, List.of(), List.of(), List.of());
    }
  }

  /**
   * One value of one interval row of a monitor on a host.
   *
   * @param monitor {@code vmstat}, {@code iostat} or {@code mpstat}
   * @param device the iostat device, {@code ""} otherwise
   * @param t seconds since the monitor started, at the end of the row's interval
   */
  record MonitorSample(
      String host, String monitor, String device, double t, String metric, double value) {}

  /**
   * One workload process as it ran.
   *
   * @param job the job name ({@code writer}); {@code process} the process ({@code writer.0})
   * @param ionice the effective I/O scheduling class read back from the process ({@code ionice
   *     -p}), e.g. {@code idle}, {@code best-effort: prio 7}; null when not read
   * @param nice the effective nice value; null when not read
   * @param cpus the effective CPU list ({@code taskset -p}); null when not read
   * @param stopped whether {@code duration} stopped it (SIGINT) rather than it ending by itself
   */
  record ProcessRecord(
      String job,
      String process,
      String role,
      String host,
      String ionice,
      Integer nice,
      String cpus,
      int exitCode,
      double seconds,
      boolean stopped) {}

  /**
   * A tool's raw output kept with the trial.
   *
   * @param process the process it came from ({@code reader.0})
   * @param kind what it is, e.g. {@code fio-json}
   */
  record TrialOutput(String process, String kind, String text) {}
}
