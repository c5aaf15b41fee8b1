package io.tunelab.matrix;

import java.time.Duration;

/**
 * What a run does when a host is lost during a trial (docs/runs.md): reconnect for up to {@code
 * reconnect}, then run the interrupted trial again, at most {@code retries} more times.
 *
 * @param retries how often one trial is run again after a lost host, 0 to 100
 * @param reconnect how long to keep reconnecting to a lost host before the run stops
 */
public record Recovery(int retries, Duration reconnect) {
  /** Two retries, ten minutes of reconnecting: a reboot or a network blip, not a dead host. */
  public static final Recovery DEFAULT = new Recovery(2, Duration.ofMinutes(10));

  /** Most retries per trial a matrix may ask for. */
  public static final int MAX_RETRIES = 100;

  /** The same, reconnecting for {@code budget} instead (the command line's {@code --reconnect}). */
  public Recovery withReconnect(Duration budget) {
    return new Recovery(retries, budget);
  }
}
