package io.tunelab.store;

/**
 * How far an experiment got, read from the database while its run goes on (for {@code tunelab
 * status} in another process). Timestamps are ISO-8601 UTC text.
 *
 * @param meanTrialSeconds mean wall time (started_at to finished_at) of its ended trials, or null
 *     before one ended
 * @param runStartedAt when its latest run (or resume) started its trials, or null
 * @param current the trial running now, or null
 * @param lastEvent the latest thing that happened, or null
 */
public record ExperimentProgress(
    long experimentId,
    String name,
    ExperimentStatus status,
    TrialCounts trials,
    Double meanTrialSeconds,
    String runStartedAt,
    CurrentTrial current,
    Event lastEvent) {

  /** The trial running now: its place in run order ({@code seq}), its cell and repetition. */
  public record CurrentTrial(
      long trialId, int seq, String cellLabel, int rep, boolean warmup, String startedAt) {}

  /**
   * One row of {@code events}.
   *
   * @param kind {@code start}, {@code trial}, {@code host}, {@code run}, {@code message} or {@code
   *     error}
   */
  public record Event(String at, String kind, String host, String message) {}
}
