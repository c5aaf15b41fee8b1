package io.tunelab.cli;

import io.tunelab.TunelabException;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** {@code --format table|json}: the output for people, or the same for scripts. */
final class FormatOption {
  @Option(
      names = "--format",
      defaultValue = "table",
      description = "table (default) or json.",
      completionCandidates = Candidates.class)
  String format;

  /** Whether JSON is asked for; an unknown format is bad usage (exit 2), before anything runs. */
  boolean json() {
    if (!format.equals("table") && !format.equals("json")) {
      throw new TunelabException(
          TunelabException.BAD_INPUT, "unknown format " + format + " (expected table or json)");
    }
    return format.equals("json");
  }

  /** What completion offers. */
  static final class Candidates extends ArrayList<String> {
    Candidates() {
      super(List.of("table", "json"));
    }
  }
}
