package io.tunelab.store.sql;

import java.time.Duration;

/**
 * The pauses between tries of a transaction the database could not take now (a locked SQLite file,
 * a PostgreSQL server away): doubling from the first to the longest, within a budget.
 */
public final class Backoff {
  private static final Duration LONGEST = Duration.ofSeconds(5);

  private final long deadline;
  private Duration pause;

  /** Starts the budget now. */
  public Backoff(Duration budget, Duration first) {
    this.deadline = System.nanoTime() + budget.toNanos();
    this.pause = first;
  }

  /**
   * Waits the next pause and returns true; false, without waiting, when it would end past the
   * budget, and when the thread is interrupted (Ctrl-C must not wait the budget out).
   */
  public boolean pause() {
    if (System.nanoTime() + pause.toNanos() > deadline) {
      return false;
    }
    try {
      Thread.sleep(pause.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
    pause = pause.multipliedBy(2).compareTo(LONGEST) > 0 ? LONGEST : pause.multipliedBy(2);
    return true;
  }
}
