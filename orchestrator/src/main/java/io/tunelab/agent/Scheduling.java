package io.tunelab.agent;

/**
 * How a process was really scheduled, read back from it on the host.
 *
 * @param nice its niceness; null when not read
 * @param cpus the CPUs it may run on, e.g. {@code 0-1}; null when not read
 * @param ionice its I/O class as {@code ionice -p} prints it ({@code idle}, {@code best-effort:
 *     prio 4}, {@code realtime: prio 0}, {@code none: prio 0}); null when not read
 */
public record Scheduling(Integer nice, String cpus, String ionice) {
  static final Scheduling UNKNOWN = new Scheduling(null, null, null);
}
