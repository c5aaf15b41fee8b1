package io.tunelab.workload;

/** Whether a trial's {@code duration} stopped a process, and how. */
public enum Stopped {
  /** It ended by itself (or was never reached by the duration). */
  NO,
  /** It was still running at the duration, got SIGINT and ended within the grace period. */
  INTERRUPTED,
  /** It outlived the grace period after SIGINT and was killed: what it did is lost. */
  KILLED
}
