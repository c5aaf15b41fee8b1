package io.tunelab;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** A number with a fixed count of decimals, as tables and trial lines print it. */
public final class Decimals {
  private Decimals() {}

  /**
   * {@code places} decimals, rounded half up from the shortest decimal form of {@code v}: what
   * {@code String.format("%.3f")} prints, at a fraction of its cost: reports print a million, and a
   * run prints one per trial in a JVM that has not compiled the formatter yet.
   */
  public static String of(double v, int places) {
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
}
