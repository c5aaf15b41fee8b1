package io.tunelab.workload;

/**
 * One measured value of a trial; {@code job} is a process ({@code dd.0}), a job ({@code writer}) or
 * {@link #AGGREGATE_JOB}.
 */
public record Sample(String job, String metric, double value, String unit) {
  /** The job of a trial's whole workload: every job and process together. */
  public static final String AGGREGATE_JOB = "all";
}
