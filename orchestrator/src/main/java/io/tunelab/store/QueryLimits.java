package io.tunelab.store;

import java.time.Duration;

/**
 * How far a user's statement ({@code tunelab query}) may go: the rows it returns and the time it
 * runs. A statement is the user's own, a recursive one can run forever or fill the heap.
 *
 * @param maxRows rows returned at most; the rest are not read
 * @param timeout how long the statement may run before it is interrupted
 */
public record QueryLimits(int maxRows, Duration timeout) {
  /** The defaults of {@code tunelab query}: 10,000 rows, 60 seconds. */
  public static final QueryLimits DEFAULT = new QueryLimits(10_000, Duration.ofSeconds(60));

  public QueryLimits {
    if (maxRows < 1 || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("limits must be positive: " + maxRows + ", " + timeout);
    }
  }
}
