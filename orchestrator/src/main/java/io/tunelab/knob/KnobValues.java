package io.tunelab.knob;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What a knob's value means: normalizing read-backs, checking and comparing values. */
public final class KnobValues {
  /** The value that stands for "what the host had when the experiment started". */
  public static final String DEFAULT = "default";

  private static final Pattern SELECTED = Pattern.compile("\\[([^\\]]*)\\]");
  private static final Pattern BLANKS = Pattern.compile("\\s+");
  // read_ahead_kb is kept in pages and max_sectors_kb in logical blocks: power-of-two
  // units of at most 64 KiB, and the kernel rounds down to a whole unit.
  private static final long LARGEST_UNIT_KB = 64;
  private static final long MIN_NR_REQUESTS = 4;

  private KnobValues() {}

  /** How a read-back compares with the value that was asked for. */
  public enum Agreement {
    /** The same value. */
    SAME,
    /** The kernel rounded the value as it is known to (pages, logical blocks, minimum). */
    ROUNDED,
    /** Something else: a failed or ignored write, or a value changed behind our back. */
    DIFFERENT
  }

  /** Whether {@code value} is the word {@code default}. */
  public static boolean isDefault(String value) {
    return value != null && value.strip().equals(DEFAULT);
  }

  /**
   * The value as users mean it: for a scheduler the selected entry of {@code [none] mq-deadline
   * kyber} ({@code none}); otherwise the text with surrounding blanks removed and inner runs of
   * blanks (tabs, newlines) collapsed to one space, so multi-field values like {@code
   * net.ipv4.tcp_rmem} compare and travel on one wire line.
   */
  public static String normalize(Knob k, String raw) {
    if (raw == null) {
      return "";
    }
    if (k.kind() == Knob.Kind.BLOCK_SCHEDULER) {
      Matcher m = SELECTED.matcher(raw);
      if (m.find()) {
        return m.group(1).strip();
      }
    }
    return BLANKS.matcher(raw.strip()).replaceAll(" ");
  }

  /** The schedulers a scheduler file offers: {@code [none] mq-deadline} gives both names. */
  public static List<String> available(Knob k, String raw) {
    List<String> names = new ArrayList<>();
    if (raw == null) {
      return names;
    }
    for (String word : BLANKS.split(raw.strip())) {
      String name = word.replace("[", "").replace("]", "");
      if (!name.isEmpty()) {
        names.add(name);
      }
    }
    return names;
  }

  /**
   * Why a requested value cannot be right for this knob on any host, or empty: {@code default}
   * always passes; numeric knobs need whole numbers in range, byte knobs accept {@code 100M}.
   * Independent of the host, so it can run while validating the matrix.
   */
  public static Optional<String> validate(Knob k, String value) {
    if (value == null) {
      return Optional.of(k.name() + ": no value");
    }
    String v = normalize(k, value);
    if (v.equals(DEFAULT)) {
      return Optional.empty();
    }
    if (v.isEmpty()) {
      return Optional.of(k.name() + ": empty value (write 'default' for the host's own value)");
    }
    return ValueRule.of(k).problem(v).map(p -> k.name() + ": " + p);
  }

  /**
   * The text written to the knob's file for a requested value (not {@code default}): normalized,
   * whole numbers canonical ({@code 0128} is {@code 128}), sizes in bytes ({@code 100M} is {@code
   * 104857600}).
   *
   * @throws IllegalArgumentException for {@code default}, which only the planner can resolve
   */
  public static String kernelValue(Knob k, String value) {
    String v = normalize(k, value);
    if (v.equals(DEFAULT)) {
      throw new IllegalArgumentException(k.name() + ": 'default' has no kernel value by itself");
    }
    return canonical(k, v);
  }

  /** Like {@link #kernelValue} for any text, {@code default} included (a file may hold it). */
  static String canonical(Knob k, String value) {
    String v = normalize(k, value);
    ValueRule rule = ValueRule.of(k);
    if (rule.numeric()) {
      OptionalLong n = rule.number(v);
      if (n.isPresent()) {
        return Long.toString(n.getAsLong());
      }
    }
    return v;
  }

  /** How the value read back compares with the value requested (not {@code default}). */
  public static Agreement agreement(Knob k, String requested, String effective) {
    String eff = normalize(k, effective);
    ValueRule rule = ValueRule.of(k);
    if (rule.numeric()) {
      OptionalLong want = rule.number(normalize(k, requested));
      OptionalLong got = ValueRule.parseSize(eff);
      if (want.isPresent() && got.isPresent()) {
        return compareNumbers(k, want.getAsLong(), got.getAsLong());
      }
    }
    return normalize(k, requested).equals(eff) ? Agreement.SAME : Agreement.DIFFERENT;
  }

  /**
   * Whether the kernel holds the requested value, allowing the roundings the kernel is known to do;
   * a {@code false} is flagged to the user, never a failure by itself.
   */
  public static boolean matches(Knob k, String requested, String effective) {
    return agreement(k, requested, effective) != Agreement.DIFFERENT;
  }

  private static Agreement compareNumbers(Knob k, long want, long got) {
    if (want == got) {
      return Agreement.SAME;
    }
    String attr = KnobCatalogue.attribute(k);
    boolean rounds =
        (k.kind() == Knob.Kind.BLOCK_QUEUE || k.kind() == Knob.Kind.BDI)
            && (attr.equals("read_ahead_kb") || attr.equals("max_sectors_kb"));
    if (rounds && got < want) {
      for (long unit = 2; unit <= LARGEST_UNIT_KB; unit *= 2) {
        if (got == want / unit * unit) {
          return Agreement.ROUNDED;
        }
      }
    }
    boolean raisedToMinimum =
        k.kind() == Knob.Kind.BLOCK_QUEUE
            && attr.equals("nr_requests")
            && want < MIN_NR_REQUESTS
            && got == MIN_NR_REQUESTS;
    return raisedToMinimum ? Agreement.ROUNDED : Agreement.DIFFERENT;
  }
}
