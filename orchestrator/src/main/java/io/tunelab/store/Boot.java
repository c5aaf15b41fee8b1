package io.tunelab.store;

import java.time.Instant;
import java.util.Locale;

/**
 * One boot tunelab asked a host for, or the host's start (table {@code boots}).
 *
 * @param release the release asked for (for {@link Reason#START}: the one the host ran)
 * @param method {@code none}, {@code kexec}, {@code reboot}, {@code command} or {@code power-cycle}
 * @param round which of the {@code boots:} of its release this boot serves, from 1
 * @param bootIdAfter the boot id the host came back with, null while booting
 * @param finishedAt null while booting
 * @param error why it failed, null otherwise
 */
public record Boot(
    long id,
    String host,
    String release,
    String method,
    Reason reason,
    int round,
    State state,
    String bootIdBefore,
    String bootIdAfter,
    Instant startedAt,
    Instant finishedAt,
    String error) {

  /** Why a host was booted. */
  public enum Reason {
    /** No boot: the release and boot id the host had when the experiment started. */
    START,
    /** A trial needs another release, or another of its boots. */
    KERNEL,
    /** The host was not back in time and was power-cycled. */
    POWER_CYCLE,
    /** Back to the release the host ran at the start. */
    HOME;

    /** As {@code boots.reason} spells it. */
    public String text() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The reason {@code boots.reason} spells as {@code text}. */
    public static Reason of(String text) {
      return valueOf(text.toUpperCase(Locale.ROOT).replace('-', '_'));
    }
  }

  /** How far a boot got. */
  public enum State {
    BOOTING,
    UP,
    FAILED;

    /** As {@code boots.state} spells it. */
    public String text() {
      return name().toLowerCase(Locale.ROOT);
    }
  }
}
