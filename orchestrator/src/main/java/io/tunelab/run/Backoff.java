package io.tunelab.run;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits between attempts to reach a host: pauses that double up to a cap, cut short by Ctrl-C. */
final class Backoff {
  private static final long TICK_MILLIS = 100;

  private final Duration longest;
  private final BooleanSupplier interrupted;
  private Duration pause;

  Backoff(Duration first, Duration longest, BooleanSupplier interrupted) {
    this.pause = first;
    this.longest = longest;
    this.interrupted = interrupted;
  }

  /** The pause the next {@link #sleep} takes. */
  Duration next() {
    return pause;
  }

  /** Sleeps the current pause (waking early on Ctrl-C), then doubles it up to the cap. */
  void sleep() {
    long until = System.nanoTime() + pause.toNanos();
    while (System.nanoTime() < until && !interrupted.getAsBoolean()) {
      try {
        Thread.sleep(Math.min(TICK_MILLIS, Math.max(1, (until - System.nanoTime()) / 1_000_000)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    pause = pause.multipliedBy(2).compareTo(longest) > 0 ? longest : pause.multipliedBy(2);
  }
}
