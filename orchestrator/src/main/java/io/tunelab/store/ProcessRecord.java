package io.tunelab.store;

/**
 * One workload process as it ran.
 *
 * @param job the job name ({@code writer}); {@code process} the process ({@code writer.0})
 * @param ionice the effective I/O scheduling class read back from the process ({@code ionice -p}),
 *     e.g. {@code idle}, {@code best-effort: prio 7}; null when not read
 * @param nice the effective nice value; null when not read
 * @param cpus the effective CPU list ({@code taskset -p}); null when not read
 * @param stopped whether {@code duration} stopped it (SIGINT) rather than it ending by itself
 */
public record ProcessRecord(
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
