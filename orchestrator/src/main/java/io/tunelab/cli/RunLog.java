package io.tunelab.cli;

import io.tunelab.TunelabException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.function.Consumer;

/**
 * The log file of one run: every line the run prints, each behind an ISO-8601 UTC timestamp, and
 * flushed at once, so the file tells what happened even when the terminal is gone.
 */
final class RunLog implements Consumer<String>, AutoCloseable {
  private static final DateTimeFormatter FILE_TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  private final Path file;
  private final Writer log;
  private final PrintWriter terminal;
  private final Clock clock;

  private RunLog(Path file, Writer log, PrintWriter terminal, Clock clock) {
    this.file = file;
    this.log = log;
    this.terminal = terminal;
    this.clock = clock;
  }

  /**
   * A new log in {@code tunelab-logs/} beside the database, named after the start time and the
   * matrix ({@code 20261130T221500Z-quickstart.log}).
   */
  static RunLog open(Path db, String matrixName, PrintWriter terminal, Clock clock) {
    Path dir = db.toAbsolutePath().normalize().getParent().resolve("tunelab-logs");
    String safeName = matrixName.replaceAll("[^A-Za-z0-9._-]", "_");
    Path file = dir.resolve(FILE_TIME.format(clock.instant()) + "-" + safeName + ".log");
    try {
      Files.createDirectories(dir);
      Writer log =
          Files.newBufferedWriter(
              file,
              StandardCharsets.UTF_8,
              StandardOpenOption.CREATE,
              StandardOpenOption.APPEND,
              StandardOpenOption.WRITE);
      return new RunLog(file, log, terminal, clock);
    } catch (IOException e) {
      throw new TunelabException(
          TunelabException.HOST_REFUSED, "cannot write the run's log " + file + ": " + e);
    }
  }

  Path file() {
    return file;
  }

  /** Prints {@code line} and logs it; a log that can no longer be written is left behind. */
  @Override
  public synchronized void accept(String line) {
    terminal.println(line);
    terminal.flush();
    String stamp = clock.instant().truncatedTo(ChronoUnit.MILLIS).toString();
    try {
      for (String part : line.split("\n", -1)) {
        log.write(stamp + " " + part + "\n");
      }
      log.flush();
    } catch (IOException e) {
      // The run matters more than its log; the terminal still has the line.
    }
  }

  /** Logs without printing: details a person at the terminal does not need. */
  synchronized void logOnly(String line) {
    try {
      log.write(Instant.now(clock).truncatedTo(ChronoUnit.MILLIS) + " " + line + "\n");
      log.flush();
    } catch (IOException e) {
      // as above
    }
  }

  @Override
  public synchronized void close() {
    try {
      log.close();
    } catch (IOException e) {
      // nothing left to tell
    }
  }
}
