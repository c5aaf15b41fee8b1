package io.tunelab.matrix;

import java.util.Locale;

/**
 * What a run does when the hosts' noise checks warn before it starts (matrix key {@code noise}).
 */
public enum Noise {
  /** Record the checks, print the warnings once, and run. */
  WARN,
  /** Refuse to start while any check warns. */
  STRICT;

  /** As the matrix spells it. */
  public String text() {
    return name().toLowerCase(Locale.ROOT);
  }
}
