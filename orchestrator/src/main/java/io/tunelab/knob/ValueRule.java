package io.tunelab.knob;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What values a knob accepts, as far as tunelab can tell without asking the host. Knobs outside the
 * catalogue's numeric families accept anything; their host decides at apply time.
 */
record ValueRule(Type type, long min, long max, List<String> choices, String unit, String hint) {

  enum Type {
    ANY,
    WORD,
    INTEGER,
    BYTES,
    CHOICE
  }

  private static final ValueRule ANY = new ValueRule(Type.ANY, 0, 0, List.of(), "", "");
  private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");
  private static final Pattern SIZE =
      Pattern.compile("([0-9]+)\\s*(?:([kmgt])(i?b)?|(b))?", Pattern.CASE_INSENSITIVE);
  private static final Pattern SCHEDULER_NAME = Pattern.compile("[A-Za-z0-9_-]+");

  static ValueRule of(Knob k) {
    String attr = KnobCatalogue.attribute(k);
    return switch (k.kind()) {
      case BLOCK_SCHEDULER -> new ValueRule(Type.WORD, 0, 0, List.of(), "", "");
      case BLOCK_QUEUE -> queue(attr);
      case BDI -> bdi(attr);
      case NFSD_THREADS -> integer(0, Long.MAX_VALUE, "");
      case SYSCTL -> sysctl(k.name());
      default -> ANY;
    };
  }

  private static ValueRule queue(String attr) {
    return switch (attr) {
      case "read_ahead_kb" -> integer(0, Long.MAX_VALUE, "KiB");
      case "max_sectors_kb" -> integer(1, Long.MAX_VALUE, "KiB");
      case "nr_requests" -> integer(0, Long.MAX_VALUE, "");
      case "rotational", "add_random", "iostats", "stable_writes" -> integer(0, 1, "");
      case "nomerges", "rq_affinity" -> integer(0, 2, "");
      case "wbt_lat_usec" ->
          new ValueRule(
              Type.INTEGER, -1, Long.MAX_VALUE, List.of(), "microseconds", "-1 = kernel default");
      case "io_timeout" -> integer(1, Long.MAX_VALUE, "milliseconds");
      case "write_cache" ->
          new ValueRule(Type.CHOICE, 0, 0, List.of("write back", "write through"), "", "");
      case "discard_max_bytes" -> bytes(0, "");
      default -> ANY;
    };
  }

  private static ValueRule bdi(String attr) {
    return switch (attr) {
      case "read_ahead_kb" -> integer(0, Long.MAX_VALUE, "KiB");
      case "min_ratio", "max_ratio" -> integer(0, 100, "percent");
      case "min_bytes", "max_bytes" -> bytes(0, "");
      case "strict_limit", "stable_pages_required" -> integer(0, 1, "");
      default -> ANY;
    };
  }

  private static ValueRule sysctl(String name) {
    return switch (name) {
      case "vm.dirty_ratio", "vm.dirty_background_ratio" -> integer(0, 100, "percent");
      case "vm.dirty_bytes" ->
          bytes(1, "the kernel refuses 0 (and less than two pages); set vm.dirty_ratio instead");
      case "vm.dirty_background_bytes" ->
          bytes(1, "the kernel refuses 0; set vm.dirty_background_ratio instead");
      default -> name.startsWith("vm.dirty_") ? integer(0, Long.MAX_VALUE, "") : ANY;
    };
  }

  private static ValueRule integer(long min, long max, String unit) {
    return new ValueRule(Type.INTEGER, min, max, List.of(), unit, "");
  }

  private static ValueRule bytes(long min, String hint) {
    return new ValueRule(Type.BYTES, min, Long.MAX_VALUE, List.of(), "", hint);
  }

  /** Whether the value is a number the planner should compare numerically. */
  boolean numeric() {
    return type == Type.INTEGER || type == Type.BYTES;
  }

  /** The number a value stands for, when this rule is numeric and the value parses. */
  OptionalLong number(String value) {
    String v = value.strip();
    if (type == Type.INTEGER) {
      if (!INTEGER.matcher(v).matches()) {
        return OptionalLong.empty();
      }
      try {
        return OptionalLong.of(Long.parseLong(v.startsWith("+") ? v.substring(1) : v));
      } catch (NumberFormatException e) {
        return OptionalLong.empty();
      }
    }
    if (type == Type.BYTES) {
      return parseSize(v);
    }
    return OptionalLong.empty();
  }

  /**
   * A byte count as dd(1) writes it: a plain number, {@code K M G T} (or {@code KiB …}) for powers
   * of 1024, {@code KB MB GB TB} for powers of 1000.
   */
  static OptionalLong parseSize(String v) {
    Matcher m = SIZE.matcher(v);
    if (!m.matches()) {
      return OptionalLong.empty();
    }
    try {
      long n = Long.parseLong(m.group(1));
      if (m.group(2) == null) {
        return OptionalLong.of(n);
      }
      int power = "kmgt".indexOf(m.group(2).toLowerCase(Locale.ROOT)) + 1;
      boolean decimal = m.group(3) != null && m.group(3).equalsIgnoreCase("b");
      long base = decimal ? 1000 : 1024;
      for (int i = 0; i < power; i++) {
        n = Math.multiplyExact(n, base);
      }
      return OptionalLong.of(n);
    } catch (NumberFormatException | ArithmeticException e) {
      return OptionalLong.empty();
    }
  }

  /** Why {@code value} (already whitespace-normalized, not {@code default}) is refused. */
  Optional<String> problem(String value) {
    switch (type) {
      case WORD:
        return SCHEDULER_NAME.matcher(value).matches()
            ? Optional.empty()
            : Optional.of("'" + value + "' is not a scheduler name");
      case CHOICE:
        return choices.contains(value)
            ? Optional.empty()
            : Optional.of("'" + value + "' is not one of: " + String.join(", ", choices));
      case INTEGER:
      case BYTES:
        OptionalLong n = number(value);
        String unit = this.unit.isEmpty() ? "" : " (" + this.unit + ")";
        if (n.isEmpty()) {
          return Optional.of(
              type == Type.INTEGER
                  ? "'" + value + "' is not a whole number" + unit
                  : "'"
                      + value
                      + "' is not a byte count (a whole number, or with a suffix:"
                      + " K M G T = 1024^n, KB MB GB TB = 1000^n)");
        }
        if (n.getAsLong() < min || n.getAsLong() > max) {
          String range = max == Long.MAX_VALUE ? "at least " + min : "from " + min + " to " + max;
          String why = hint.isEmpty() ? "" : "; " + hint;
          return Optional.of("'" + value + "' is out of range: " + range + unit + why);
        }
        return Optional.empty();
      default:
        return Optional.empty();
    }
  }
}
