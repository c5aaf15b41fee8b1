package io.tunelab.agent;

import io.tunelab.knob.ReadResult;
import java.util.Map;

/**
 * A {@code health} answer: the host's figures and the knobs it was asked to read back.
 *
 * @param health the figures (docs/agent.md, "health")
 * @param knobs each path asked for to what it holds; a missing one as {@link ReadResult#missing()}
 */
public record HealthReading(Health health, Map<String, ReadResult> knobs) {
  public HealthReading {
    knobs = Map.copyOf(knobs);
  }
}
