package io.tunelab.cli;

import io.tunelab.Timestamps;
import io.tunelab.TunelabException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.function.Consumer;

/**
 * The log file of one run: every line the run prints, each behind an ISO-8601 UTC timestamp, and
 * flushed at once, so the file tells what happened even when the terminal is gone. On a terminal it
 * also keeps a progress bar on the last line, redrawn in place below what is printed.
 */
final class RunLog implements Consumer<String>, AutoCloseable {
  private static final DateTimeFormatter FILE_TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  /** Back to the start of the line and erase it: where the bar is redrawn. */
  private static final String CLEAR_LINE = "\r\033[K";

  private final Path file;
  private final Writer log;
  private final PrintWriter terminal;
  private final Clock clock;
  private final boolean interactive;
  private String bar;

  private RunLog(Path file, Writer log, PrintWriter terminal, Clock clock, boolean interactive) {
    this.file = file;
    this.log = log;
    this.terminal = terminal;
    this.clock = clock;
    this.interactive = interactive;
  }

  /**
   * A new log in {@code tunelab-logs/} beside the database (created 0700), named after the start
   * time and the matrix ({@code 20261130T221500Z-quickstart.log}).
   */
  static RunLog open(Path db, String matrixName, PrintWriter terminal, Clock clock) {
    return open(db, matrixName, terminal, clock, false);
  }

  /**
   * As {@link #open(Path, String, PrintWriter, Clock)}; {@code interactive} when {@code terminal}
   * is a terminal a person watches: trial lines then go to the log only and a progress bar (see
   * {@link #bar}) stands in for them.
   */
  static RunLog open(
      Path db, String matrixName, PrintWriter terminal, Clock clock, boolean interactive) {
    Path dir = db.toAbsolutePath().normalize().getParent().resolve("tunelab-logs");
    String safeName = matrixName.replaceAll("[^A-Za-z0-9._-]", "_");
    Path file = dir.resolve(FILE_TIME.format(clock.instant()) + "-" + safeName + ".log");
    try {
      // Workload output and host names are no one else's business: a new folder is 0700.
      Files.createDirectories(
          dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      Writer log =
          Files.newBufferedWriter(
              file,
              StandardCharsets.UTF_8,
              StandardOpenOption.CREATE,
              StandardOpenOption.APPEND,
              StandardOpenOption.WRITE);
      return new RunLog(file, log, terminal, clock, interactive);
    } catch (IOException e) {
      throw new TunelabException(
          TunelabException.HOST_REFUSED, "cannot write the run's log " + file + ": " + e);
    }
  }

  Path file() {
    return file;
  }

  boolean interactive() {
    return interactive;
  }

  /** Prints {@code line} and logs it; a log that can no longer be written is left behind. */
  @Override
  public synchronized void accept(String line) {
    if (bar != null) {
      terminal.print(CLEAR_LINE);
    }
    terminal.println(line);
    if (bar != null) {
      terminal.print(bar);
    }
    terminal.flush();
    write(line);
  }

  /**
   * A trial's line: logged; printed only where no bar stands in for it, then behind the time of
   * day, so that a file or a CI log shows when each trial ended.
   */
  synchronized void progress(String line) {
    if (!interactive) {
      terminal.println(Timestamps.toSecond(clock.instant()) + " " + line);
      terminal.flush();
    }
    write(line);
  }

  /** Redraws the progress bar in place on a terminal (null removes it); elsewhere nothing. */
  synchronized void bar(String text) {
    if (!interactive || (text == null && bar == null)) {
      return;
    }
    terminal.print(CLEAR_LINE);
    if (text != null) {
      terminal.print(text);
    }
    terminal.flush();
    bar = text;
  }

  private void write(String line) {
    String stamp = Timestamps.of(clock.instant());
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
    write(line);
  }

  @Override
  public synchronized void close() {
    bar(null);
    try {
      log.close();
    } catch (IOException e) {
      // nothing left to tell
    }
  }
}
