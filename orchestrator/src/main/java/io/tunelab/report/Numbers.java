package io.tunelab.report;

import io.tunelab.stats.Interval;
import java.math.BigDecimal;
import java.math.RoundingMode;

/** How reports write numbers: three decimals for people, full precision for machines. */
final class Numbers {
  private Numbers() {}

  /** Three decimals, as the classic tables print times and throughput. */
  static String fixed(double v) {
    return decimals(v, 3);
  }

  /**
   * {@code places} decimals, rounded half up from the shortest decimal form of {@code v}: what
   * {@code String.format("%.3f")} prints, at a fraction of its cost (reports print a million).
   */
  static String decimals(double v, int places) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return String.valueOf(v);
    }
    String shortest = Double.toString(v);
    if (shortest.indexOf('E') >= 0) {
      return BigDecimal.valueOf(v).setScale(places, RoundingMode.HALF_UP).toPlainString();
    }
    return rounded(shortest, places);
  }

  /**
   * {@code BigDecimal.setScale(places, HALF_UP).toPlainString()} of a plain decimal such as {@code
   * -12.3456}, on its digits: half up looks at the first digit dropped only, and a carry may run
   * into the integer part. Zero has no sign, as in BigDecimal.
   */
  private static String rounded(String plain, int places) {
    boolean negative = plain.charAt(0) == '-';
    int start = negative ? 1 : 0;
    int dot = plain.indexOf('.');
    // Digits without the point, cut or padded to the places kept.
    StringBuilder digits = new StringBuilder(plain.length() + places + 1);
    digits.append(plain, start, dot);
    int integerDigits = dot - start;
    int fraction = plain.length() - dot - 1;
    digits.append(plain, dot + 1, dot + 1 + Math.min(fraction, places));
    for (int i = fraction; i < places; i++) {
      digits.append('0');
    }
    if (fraction > places && plain.charAt(dot + 1 + places) >= '5') {
      int i = digits.length() - 1;
      while (i >= 0 && digits.charAt(i) == '9') {
        digits.setCharAt(i--, '0');
      }
      if (i < 0) {
        digits.insert(0, '1');
        integerDigits++;
      } else {
        digits.setCharAt(i, (char) (digits.charAt(i) + 1));
      }
    }
    boolean zero = true;
    for (int i = 0; i < digits.length() && zero; i++) {
      zero = digits.charAt(i) == '0';
    }
    StringBuilder out = new StringBuilder(digits.length() + 2);
    if (negative && !zero) {
      out.append('-');
    }
    out.append(digits, 0, integerDigits);
    if (places > 0) {
      out.append('.').append(digits, integerDigits, digits.length());
    }
    return out.toString();
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
    String rounded = decimals(v, 1);
    return (rounded.startsWith("-") ? "" : "+") + rounded;
  }

  /** A change in percent with its sign and one decimal: {@code +79.2%}, {@code -0.3%}. */
  static String percent(double v) {
    if (Double.isNaN(v)) {
      return "-";
    }
    // -0.04 rounds to 0.0, a change too small to have a minus sign.
    String rounded = decimals(v, 1);
    return (rounded.startsWith("-") ? "" : "+") + rounded + "%";
  }

  /** {@code ±2.3%}: a standard deviation relative to its mean. */
  static String relative(double std, double mean) {
    if (mean == 0 || Double.isNaN(std)) {
      return "±-";
    }
    return "±" + decimals(100 * std / Math.abs(mean), 1) + "%";
  }

  /** A p-value: three decimals, {@code <0.001} below, {@code -} when there is none. */
  static String p(double p) {
    if (Double.isNaN(p)) {
      return "-";
    }
    return p < 0.001 ? "<0.001" : decimals(p, 3);
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
