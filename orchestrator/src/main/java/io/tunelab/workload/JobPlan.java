package io.tunelab.workload;

import java.time.Duration;
import java.util.List;

/**
 * One job of a trial, resolved: its processes, started together on the host of {@code role}, and
 * how to read what they print.
 *
 * @param name the job's name, which its samples carry ({@code writer}; {@code writer.0} per
 *     process)
 * @param blockBytes dd's block size in bytes ({@code iops = mib_per_s / bs_in_MiB}); 0 when
 *     unknown, then no {@code iops} is derived
 * @param declaredBytes the bytes one process moves as a command job declares them ({@code bytes:}),
 *     or null
 * @param ionice null to leave the class alone, else {@code idle}, {@code be/N} or {@code rt/N}
 * @param nice null to leave the niceness alone, else -20 to 19
 * @param cpus null for any CPU, else a taskset CPU list ({@code 0-3,6})
 * @param duration null for the workload's, else the job's own
 * @param timeout null for the workload's, else the job's own
 */
public record JobPlan(
    String name,
    String role,
    JobKind kind,
    Parser parser,
    long blockBytes,
    Long declaredBytes,
    String ionice,
    Integer nice,
    String cpus,
    Duration duration,
    Duration timeout,
    List<ProcessPlan> processes) {}
