package io.tunelab.workload;

import java.time.Duration;
import java.util.List;

/**
 * One monitor on one role's host for one trial, resolved.
 *
 * @param name what the agent calls it and what its samples' job starts with, {@code vmstat@client}
 * @param devices iostat's devices, substituted (empty: every device)
 * @param argv the command, {@link MonitorOutput#argv}
 */
public record MonitorPlan(
    String tool,
    String role,
    Duration interval,
    List<String> devices,
    String name,
    List<String> argv) {

  public MonitorPlan {
    devices = List.copyOf(devices);
    argv = List.copyOf(argv);
  }
}
