package io.tunelab.workload;

import java.util.List;

/**
 * The resolved workload of one trial: the jobs to start together and how to read their output.
 *
 * @param blockBytes dd's block size in bytes ({@code iops = mib_per_s / bs_in_MiB}); 0 when
 *     unknown, then no {@code iops} is derived
 * @param parser {@code dd} or {@code none}
 */
public record WorkloadPlan(String role, List<Job> jobs, String parser, long blockBytes) {}
