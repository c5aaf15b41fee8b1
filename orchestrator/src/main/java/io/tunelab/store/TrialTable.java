package io.tunelab.store;

import java.util.List;

/**
 * A per-trial table that {@code tunelab export} writes besides the samples: its columns after the
 * trial's own.
 */
public enum TrialTable {
  /** {@code trial_processes}: how each workload process ran. */
  PROCESSES(
      List.of(
          "job",
          "process",
          "role",
          "host",
          "ionice",
          "nice",
          "cpus",
          "exit_code",
          "seconds",
          "stopped")),
  /** {@code trial_outputs}: kept tool output, decompressed to its text. */
  OUTPUTS(List.of("job", "process", "kind", "text"));

  private final List<String> columns;

  TrialTable(List<String> columns) {
    this.columns = columns;
  }

  /** The table's own columns, in order. */
  public List<String> columns() {
    return columns;
  }
}
