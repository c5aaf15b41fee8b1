package io.tunelab.agent;

/** The requests the host agent understands, each with its name on the wire (docs/agent.md). */
public enum AgentVerb {
  HELLO("hello"),
  FACTS("facts"),
  READ("read"),
  LIST("list"),
  APPLY("apply"),
  RESTORE("restore"),
  JOURNAL("journal"),
  RUN("run"),
  START("start"),
  GO("go"),
  WAIT("wait"),
  STOP("stop"),
  DROP_CACHES("drop-caches"),
  SYNC("sync"),
  CANCEL("cancel"),
  HEALTH("health"),
  NOISE("noise");

  private final String wire;

  AgentVerb(String wire) {
    this.wire = wire;
  }

  /** The verb as the agent spells it, e.g. {@code drop-caches}. */
  public String wire() {
    return wire;
  }

  @Override
  public String toString() {
    return wire;
  }
}
