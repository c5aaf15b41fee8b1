package io.tunelab.testing;

import java.time.Duration;

/**
 * The one factor every behavioural time bound of the tests is multiplied by: {@code
 * TUNELAB_TEST_TIME_FACTOR} in the environment, or {@code -Dtunelab.test.time.factor}, default 1. A
 * slow or loaded machine raises it instead of a test raising its own bound. Throughput is not
 * asserted here at all: bench/ prints it.
 */
public final class TestTime {
  /** The factor, at least 1. */
  public static final double FACTOR = factor();

  private TestTime() {}

  /** {@code d} times the factor. */
  public static Duration scaled(Duration d) {
    return Duration.ofNanos((long) (d.toNanos() * FACTOR));
  }

  /** {@code millis} times the factor. */
  public static long millis(long millis) {
    return (long) (millis * FACTOR);
  }

  /** {@code seconds} times the factor, in whole seconds (for {@code waitFor} and {@code get}). */
  public static long seconds(long seconds) {
    return (long) Math.ceil(seconds * FACTOR);
  }

  /** A condition {@link #poll} asks again until it holds. */
  @FunctionalInterface
  public interface Condition {
    boolean met() throws Exception;
  }

  /**
   * Asks {@code condition} every {@code every} until it holds or {@code within} (scaled) has
   * passed; returns whether it held, for the caller to assert with its own message.
   */
  public static boolean poll(Duration within, Duration every, Condition condition)
      throws Exception {
    long deadline = System.nanoTime() + scaled(within).toNanos();
    while (!condition.met()) {
      if (System.nanoTime() - deadline >= 0) {
        return false;
      }
      Thread.sleep(every.toMillis());
    }
    return true;
  }

  private static double factor() {
    String text = System.getProperty("tunelab.test.time.factor");
    if (text == null || text.isBlank()) {
      text = System.getenv("TUNELAB_TEST_TIME_FACTOR");
    }
    if (text == null || text.isBlank()) {
      return 1;
    }
    try {
      double f = Double.parseDouble(text.trim());
      if (f >= 1 && f <= 1000) {
        return f;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "TUNELAB_TEST_TIME_FACTOR (or tunelab.test.time.factor) must be a number from 1 to 1000,"
            + " not '"
            + text
            + "'");
  }
}
