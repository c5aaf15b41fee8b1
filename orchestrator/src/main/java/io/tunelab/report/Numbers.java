package io.tunelab.report;

import io.tunelab.Decimals;
import io.tunelab.stats.Interval;
import java.math.BigDecimal;

/** How reports write numbers: three decimals for people, full precision for machines. */
final class Numbers {
  private Numbers() {}

  /** Three decimals, as the classic tables print times and throughput. */
  static String fixed(double v) {
    return Decimals.of(v, 3);
  }

  /** A confidence interval of a change: {@code [+2.8, +3.4]}; {@code [-]} when unknown. */
  static String interval(Interval i) {
    if (!i.known()) {
      return "[-]";
    }
    return "[" + signed(i.low()) + ", " + signed(i.high()) + "]";
  }

  /** {@code +3.1}, {@code -0.4}: a percentage with one decimal and its sign, without {@code %}. */
  static String signed(double v) {
    String rounded = Decimals.of(v, 1);
    return (rounded.startsWith("-") ? "" : "+") + rounded;
  }

  /** A change in percent with its sign and one decimal: {@code +79.2%}, {@code -0.3%}. */
  static String percent(double v) {
    if (Double.isNaN(v)) {
      return "-";
    }
    // -0.04 rounds to 0.0, a change too small to have a minus sign.
    String rounded = Decimals.of(v, 1);
    return (rounded.startsWith("-") ? "" : "+") + rounded + "%";
  }

  /** {@code ±2.3%}: a standard deviation relative to its mean. */
  static String relative(double std, double mean) {
    if (mean == 0 || Double.isNaN(std)) {
      return "±-";
    }
    return "±" + Decimals.of(100 * std / Math.abs(mean), 1) + "%";
  }

  /** A p-value: three decimals, {@code <0.001} below, {@code -} when there is none. */
  static String p(double p) {
    if (Double.isNaN(p)) {
      return "-";
    }
    return p < 0.001 ? "<0.001" : Decimals.of(p, 3);
  }

  /** Full precision without exponent ({@code 62.668045141476874}, {@code 1}); empty for NaN. */
  static String exact(double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      return "";
    }
    if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      return Long.toString((long) d);
    }
    // The shortest decimal form, as BigDecimal.valueOf reads it: the same digits, and an
    // export writes a million of them.
    String s = Double.toString(d);
    return s.indexOf('E') < 0 ? s : BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
  }
}
