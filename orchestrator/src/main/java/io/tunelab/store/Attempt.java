package io.tunelab.store;

import java.time.Instant;
import java.util.Locale;

/**
 * One attempt at a trial (table {@code trial_attempts}).
 *
 * @param error why it failed or was lost, with what happened to the host (a reboot); null when ok
 */
public record Attempt(Instant startedAt, Instant finishedAt, Status status, String error) {
  /** How an attempt ended: as the trial would, or {@code lost} with its host. */
  public enum Status {
    OK,
    FAILED,
    /** A host was lost during it: the trial runs again, or is left to {@code resume}. */
    LOST;

    /** As {@code trial_attempts.status} spells it. */
    public String text() {
      return name().toLowerCase(Locale.ROOT);
    }
  }
}
