package io.tunelab.report;

import io.tunelab.TunelabException;
import java.util.Locale;

/** What {@code tunelab export} writes: {@code csv}, {@code json} (one array) or {@code jsonl}. */
public enum ExportFormat {
  /** RFC 4180 with a header line. */
  CSV,
  /** One JSON array, one object per line, written as it is read. */
  JSON,
  /** JSON Lines: one object per line and nothing else. */
  JSONL;

  /** The format of that name ({@code ndjson} is {@code jsonl}); anything else is exit code 2. */
  public static ExportFormat named(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    for (ExportFormat f : values()) {
      if (f.name().toLowerCase(Locale.ROOT).equals(n)) {
        return f;
      }
    }
    if (n.equals("ndjson")) {
      return JSONL;
    }
    throw new TunelabException(
        TunelabException.BAD_INPUT, "unknown format " + name + " (expected csv, json or jsonl)");
  }
}
