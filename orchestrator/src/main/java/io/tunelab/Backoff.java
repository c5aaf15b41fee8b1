package io.tunelab;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * The pauses between tries of something that may come back (a locked database, a server away, a
 * host rebooting): doubling from the first up to the longest, within a budget, cut short by Ctrl-C.
 */
public final class Backoff {
  /** How often a pause looks whether it was interrupted. */
  private static final long TICK_MILLIS = 100;

  private final Duration longest;
  private final long deadline;
  private final BooleanSupplier interrupted;
  private Duration pause;

  /**
   * Starts the budget now; {@code interrupted} says when to stop waiting (the thread's own
   * interrupt always does).
   */
  public Backoff(Duration first, Duration longest, Duration budget, BooleanSupplier interrupted) {
    this.pause = first;
    this.longest = longest;
    this.deadline = System.nanoTime() + budget.toNanos();
    this.interrupted = interrupted;
  }

  /** A database's: from {@code first} up to 5 s apart, within {@code budget}. */
  public static Backoff within(Duration budget, Duration first) {
    return new Backoff(first, Duration.ofSeconds(5), budget, () -> false);
  }

  /** The pause the next {@link #pause} takes. */
  public Duration next() {
    return pause;
  }

  /**
   * Waits the next pause, then doubles it up to the longest, and returns true; returns false, not
   * waiting, when the pause would end past the budget, and as soon as it is interrupted.
   */
  public boolean pause() {
    long until = System.nanoTime() + pause.toNanos();
    if (until - deadline > 0) {
      return false;
    }
    while (System.nanoTime() - until < 0) {
      if (interrupted.getAsBoolean()) {
        return false;
      }
      try {
        Thread.sleep(Math.min(TICK_MILLIS, Math.max(1, (until - System.nanoTime()) / 1_000_000)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    pause = pause.multipliedBy(2).compareTo(longest) > 0 ? longest : pause.multipliedBy(2);
    return true;
  }
}
