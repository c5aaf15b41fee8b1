package io.tunelab.cli;

import io.tunelab.matrix.Durations;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code --reconnect DURATION} and {@code --keepalive DURATION} of {@code run} and {@code resume}:
 * how long a lost host is waited for, and how soon it counts as lost (docs/runs.md).
 */
final class RecoveryOptions {
  @Option(
      names = "--reconnect",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description =
          "How long to reconnect to a host lost during a trial before the run stops and leaves"
              + " the rest to resume, e.g. 30m (default: the matrix's reconnect, else 10m).")
  Duration reconnect;

  @Option(
      names = "--keepalive",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description =
          "Interval of SSH keepalives; a host that misses four in a row is lost (default 15s).")
  Duration keepalive;

  /** Durations as a matrix writes them: {@code 500ms}, {@code 30s}, {@code 10m}, {@code 2h}. */
  static final class DurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      try {
        return Durations.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
