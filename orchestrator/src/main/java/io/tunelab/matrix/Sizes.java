package io.tunelab.matrix;

import java.util.Locale;

/**
 * Byte sizes as dd takes them, in binary multiples: {@code 4096}, {@code 64K}, {@code 64M}, {@code
 * 1G}, {@code 2T}, and the same with {@code KiB}, {@code MiB}, {@code GiB}, {@code TiB}. A
 * lower-case {@code k} is accepted as dd accepts it. Decimal suffixes ({@code kB}, {@code MB}) are
 * refused so that a size never silently means 1000 instead of 1024.
 */
public final class Sizes {
  private Sizes() {}

  /** Bytes in binary units with one decimal below 10: {@code 256 GiB}, {@code 3.8 GiB}. */
  public static String show(long bytes) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double v = bytes;
    int u = 0;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    if (u == 0 || v >= 10 || v == Math.rint(v)) {
      return Math.round(v) + " " + units[u];
    }
    return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }

  /**
   * Parses a size to bytes.
   *
   * @throws IllegalArgumentException with a one-line message naming the accepted forms
   */
  public static long parseBytes(String text) {
    int end = 0;
    while (end < text.length() && text.charAt(end) >= '0' && text.charAt(end) <= '9') {
      end++;
    }
    if (end == 0) {
      throw notASize(text);
    }
    int shift = shift(text.substring(end));
    if (shift < 0) {
      throw notASize(text);
    }
    long number;
    try {
      number = Long.parseLong(text.substring(0, end));
    } catch (NumberFormatException e) {
      throw tooLarge(text);
    }
    if (number > (Long.MAX_VALUE >> shift)) {
      throw tooLarge(text);
    }
    return number << shift;
  }

  private static int shift(String suffix) {
    switch (suffix) {
      case "":
        return 0;
      case "k":
      case "K":
      case "KiB":
        return 10;
      case "M":
      case "MiB":
        return 20;
      case "G":
      case "GiB":
        return 30;
      case "T":
      case "TiB":
        return 40;
      default:
        return -1;
    }
  }

  private static IllegalArgumentException notASize(String text) {
    return new IllegalArgumentException(
        "'"
            + text
            + "' is not a size: write a whole number of bytes, optionally followed by"
            + " K, M, G, T or KiB, MiB, GiB, TiB (binary multiples)");
  }

  private static IllegalArgumentException tooLarge(String text) {
    return new IllegalArgumentException("size '" + text + "' is too large");
  }
}
