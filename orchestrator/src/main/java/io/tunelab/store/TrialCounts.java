package io.tunelab.store;

/** Trials of one experiment by status, warm-up trials included. */
public record TrialCounts(int ok, int failed, int skipped, int pending, int running) {
  /** How many trials are in {@code status}. */
  public int of(TrialStatus status) {
    return switch (status) {
      case OK -> ok;
      case FAILED -> failed;
      case SKIPPED -> skipped;
      case PENDING -> pending;
      case RUNNING -> running;
    };
  }

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
