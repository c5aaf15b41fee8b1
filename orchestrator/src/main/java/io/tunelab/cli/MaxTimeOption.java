package io.tunelab.cli;

import java.time.Duration;
import picocli.CommandLine.Option;

/** {@code --max-time DURATION} of {@code run} and {@code resume}. */
final class MaxTimeOption {
  @Option(
      names = "--max-time",
      paramLabel = "DURATION",
      converter = DurationText.class,
      description =
          "Start no trial after this long (e.g. 30s, 5m, 2h, 10h): the current trial ends,"
              + " every host is restored, and `tunelab resume` does the rest.")
  Duration maxTime;

  /** The limit, or null for none. */
  Duration value() {
    return maxTime;
  }
}
