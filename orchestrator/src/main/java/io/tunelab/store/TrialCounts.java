package io.tunelab.store;

/** Trials of one experiment by status, warm-up trials included. */
public record TrialCounts(int ok, int failed, int skipped, int pending, int running) {
  public int total() {
    return ok + failed + skipped + pending + running;
  }

  /**
   * Trials that have not run to the end, what {@code resume} would still run: pending, or running
   * (or interrupted while running).
   */
  public int unfinished() {
    return pending + running;
  }
}
