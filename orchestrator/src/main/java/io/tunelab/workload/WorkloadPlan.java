package io.tunelab.workload;

import java.time.Duration;
import java.util.List;

/**
 * The resolved workload of one trial: the jobs to start together and its time limits.
 *
 * @param duration null, or when jobs still running are stopped (SIGINT, then SIGKILL after a
 *     grace): the duration of every job that has none of its own
 * @param timeout null, or when a job still running is killed and its trial recorded as failed: the
 *     timeout of every job that has none of its own
 * @param stopGrace null for the host agent's own, or how long a job stopped at its duration has
 *     before SIGKILL
 */
public record WorkloadPlan(
    List<JobPlan> jobs, Duration duration, Duration timeout, Duration stopGrace) {}
