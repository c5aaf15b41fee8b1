package io.tunelab.agent;

import java.util.List;

/**
 * A command that samples a host while a trial's processes run, e.g. {@code vmstat@client} running
 * {@code env LC_ALL=C vmstat -n 1}; stopped with SIGTERM when the last process has ended.
 */
public record TrialMonitor(String name, List<String> argv) {
  public TrialMonitor {
    argv = List.copyOf(argv);
  }
}
