package io.tunelab.agent;

import java.util.List;

/**
 * What a monitor printed during a trial.
 *
 * @param exitCode 143 when SIGTERM stopped it as planned (some tools exit 0); anything else means
 *     it ended by itself, e.g. 127 when the tool is missing
 * @param stdout every line, up to the agent's cap
 * @param stderr its last lines
 * @param counters the kernel's counters the agent read at its start and at the trial's stop ({@code
 *     stat} rows, {@link io.tunelab.workload.MonitorCounters}); empty for a command that is no
 *     vmstat, iostat or mpstat
 */
public record MonitorReport(
    String name, int exitCode, List<String> stdout, List<String> stderr, List<String> counters) {
  public MonitorReport {
    stdout = List.copyOf(stdout);
    stderr = List.copyOf(stderr);
    counters = List.copyOf(counters);
  }

  /** Whether it ran until it was stopped. */
  public boolean ranToTheEnd() {
    return exitCode == 0 || exitCode == 143;
  }
}
