package io.tunelab.cli;

import io.tunelab.report.ExportFormat;
import io.tunelab.report.ReportFormat;
import java.util.ArrayList;
import java.util.Locale;

/** The values of {@code --format} that shell completion offers, from the formats themselves. */
final class FormatCandidates {
  private FormatCandidates() {}

  /** {@code report} and {@code compare}: text, md, csv, json. */
  static final class Report extends ArrayList<String> {
    Report() {
      for (ReportFormat f : ReportFormat.values()) {
        add(f.name().toLowerCase(Locale.ROOT));
      }
    }
  }

  /** {@code export}: csv, json, jsonl. */
  static final class Export extends ArrayList<String> {
    Export() {
      for (ExportFormat f : ExportFormat.values()) {
        add(f.name().toLowerCase(Locale.ROOT));
      }
    }
  }
}
