package io.tunelab.trace;

/**
 * The controller's own phases of a trial, as {@link PhaseTrace} names them (docs/performance.md).
 */
public enum Phase {
  STORE_START("store-start"),
  LISTENER("listener"),
  PLAN_KNOBS("plan-knobs"),
  APPLY("apply"),
  BEFORE_TRIAL("before-trial"),
  PLAN_WORKLOAD("plan-workload"),
  WORKLOAD("workload"),
  PARSE("parse"),
  STORE_ATTEMPT("store-attempt"),
  AFTER_TRIAL("after-trial"),
  STORE_FINISH("store-finish");

  private final String traced;

  Phase(String traced) {
    this.traced = traced;
  }

  /** The phase's name in the trace file. */
  public String traced() {
    return traced;
  }
}
