package io.tunelab.workload;

import java.util.List;

/** What the agent reported for one job: exit status, host-side start/end, last output lines. */
public record JobResult(
    String name,
    int exitCode,
    long startNanos,
    long endNanos,
    List<String> stdout,
    List<String> stderr) {

  /** Elapsed time measured on the host around the job's own exec. */
  public double hostSeconds() {
    return (endNanos - startNanos) / 1e9;
  }
}
