package io.tunelab.testing;

import java.util.ArrayList;
import java.util.List;

/** The times of one thing a bench/ entry point measured, printed as a figure: never asserted. */
public final class Timings {
  private final String what;
  private final List<Long> nanos = new ArrayList<>();

  public Timings(String what) {
    this.what = what;
  }

  /** Adds one measurement that started at {@code startNanos} ({@link System#nanoTime()}). */
  public void since(long startNanos) {
    nanos.add(System.nanoTime() - startNanos);
  }

  /** {@code what: median M ms (min A, max B, mean C) of N}, in milliseconds. */
  @Override
  public String toString() {
    List<Long> sorted = new ArrayList<>(nanos);
    sorted.sort(null);
    int n = sorted.size();
    if (n == 0) {
      return what + ": not measured";
    }
    double median = (sorted.get((n - 1) / 2) + sorted.get(n / 2)) / 2e6;
    double mean = sorted.stream().mapToLong(Long::longValue).average().orElse(0) / 1e6;
    return String.format(
        "%-52s median %9.3f ms (min %.3f, max %.3f, mean %.3f) of %d",
        what + ":", median, sorted.get(0) / 1e6, sorted.get(n - 1) / 1e6, mean, n);
  }
}
