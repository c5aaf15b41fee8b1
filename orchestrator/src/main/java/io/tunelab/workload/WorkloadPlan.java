package io.tunelab.workload;

import java.time.Duration;
import java.util.List;

/**
 * The resolved workload of one trial: the jobs to start together and its time limits.
 *
 * @param duration null, or when jobs still running are stopped (SIGINT, then SIGKILL after a grace)
 * @param timeout null, or when a trial still running is killed and recorded as failed
 */
public record WorkloadPlan(List<JobPlan> jobs, Duration duration, Duration timeout) {}
