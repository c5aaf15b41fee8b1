package io.tunelab.stats;

import java.util.Locale;

/** Which way a metric improves: throughput up, time and latency down. */
public enum Direction {
  HIGHER_IS_BETTER("higher is better"),
  LOWER_IS_BETTER("lower is better"),
  UNKNOWN("direction unknown");

  private final String text;

  Direction(String text) {
    this.text = text;
  }

  /**
   * The direction of a metric by its name: {@code mib_per_s}, {@code iops}, {@code ops}, {@code
   * bytes} and anything per second or named bandwidth/throughput go up; {@code seconds}, latencies
   * and waits go down; anything else is unknown.
   */
  public static Direction of(String metric) {
    String m = metric.toLowerCase(Locale.ROOT);
    if (m.equals("seconds")
        || m.endsWith("_seconds")
        || m.endsWith("_ms")
        || m.endsWith("_us")
        || m.endsWith("_usec")
        || m.endsWith("_ns")
        || m.contains("lat")
        || m.contains("wait")) {
      return LOWER_IS_BETTER;
    }
    if (m.contains("per_s")
        || m.contains("iops")
        || m.equals("ops")
        || m.endsWith("_ops")
        || m.equals("bytes")
        || m.contains("bw")
        || m.contains("bandwidth")
        || m.contains("throughput")) {
      return HIGHER_IS_BETTER;
    }
    return UNKNOWN;
  }

  /** A change of {@code percent} that counts: {@code better}, {@code worse} or {@code changed}. */
  public Verdict verdict(double percent) {
    return switch (this) {
      case HIGHER_IS_BETTER -> percent > 0 ? Verdict.BETTER : Verdict.WORSE;
      case LOWER_IS_BETTER -> percent < 0 ? Verdict.BETTER : Verdict.WORSE;
      case UNKNOWN -> Verdict.CHANGED;
    };
  }

  /** {@code higher is better} … for legends. */
  public String text() {
    return text;
  }
}
