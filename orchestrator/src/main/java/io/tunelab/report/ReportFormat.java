package io.tunelab.report;

import io.tunelab.TunelabException;
import java.util.Locale;

/**
 * How {@code report} and {@code compare} print: {@code text}, {@code md}, {@code csv}, {@code
 * json}.
 */
public enum ReportFormat {
  /** Fixed-width plain text for e-mail. */
  TEXT,
  /** GitHub-flavoured Markdown: tables with a header rule, lists for the rest. */
  MD,
  /** RFC 4180, one header line, numbers at full precision; notes go to standard error. */
  CSV,
  /** One JSON document with the table, the statistics behind it and the warnings. */
  JSON;

  /** The format of that name ({@code markdown} is {@code md}); anything else is exit code 2. */
  public static ReportFormat named(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    for (ReportFormat f : values()) {
      if (f.name().toLowerCase(Locale.ROOT).equals(n)) {
        return f;
      }
    }
    if (n.equals("markdown")) {
      return MD;
    }
    throw new TunelabException(
        TunelabException.BAD_INPUT, "unknown format " + name + " (expected text, md, csv or json)");
  }

  /** The report in this format, ending with a newline. */
  public String render(Report report) {
    return switch (this) {
      case TEXT -> TextOutput.report(report);
      case MD -> MarkdownOutput.report(report);
      case CSV -> CsvOutput.report(report);
      case JSON -> JsonOutput.report(report);
    };
  }

  /** The comparison in this format, ending with a newline. */
  public String render(Comparison comparison) {
    return switch (this) {
      case TEXT -> TextOutput.comparison(comparison);
      case MD -> MarkdownOutput.comparison(comparison);
      case CSV -> CsvOutput.comparison(comparison);
      case JSON -> JsonOutput.comparison(comparison);
    };
  }
}
