package io.tunelab.agent;

/** Hears how long each request to an agent took, from sending it to its answer (for tracing). */
@FunctionalInterface
public interface RequestTimer {
  /** Times nothing. */
  RequestTimer NONE = (host, verb, nanos) -> {};

  void answered(String host, AgentVerb verb, long nanos);
}
