package io.tunelab.workload;

/** The program a job runs. */
public enum JobKind {
  DD,
  FIO,
  COMMAND
}
