package io.tunelab.trace;

import io.tunelab.agent.AgentVerb;
import io.tunelab.agent.RequestTimer;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * How long each phase of each trial took, for the benchmarks (docs/performance.md): with {@code
 * TUNELAB_TRACE=FILE}, one line {@code TRIAL<TAB>PHASE<TAB>HOST<TAB>MICROSECONDS} per phase (host
 * {@code -} for the controller's own), every agent request timed from send to answer. Off by
 * default, and then it costs one branch per phase.
 */
public final class PhaseTrace implements RequestTimer, AutoCloseable {
  /** The environment variable naming the trace file. */
  public static final String VARIABLE = "TUNELAB_TRACE";

  private static final PhaseTrace OFF = new PhaseTrace(null);

  private final Writer out;
  private final StringBuilder pending = new StringBuilder();
  private long trial;

  private PhaseTrace(Writer out) {
    this.out = out;
  }

  /** A trace that records nothing. */
  public static PhaseTrace off() {
    return OFF;
  }

  /** Appends to {@code file}. */
  public static PhaseTrace toFile(Path file) throws IOException {
    return new PhaseTrace(
        Files.newBufferedWriter(
            file,
            StandardCharsets.UTF_8,
            StandardOpenOption.CREATE,
            StandardOpenOption.APPEND,
            StandardOpenOption.WRITE));
  }

  /** A clock reading to pass to {@link #phase} later; 0 when off. */
  public long start() {
    return out == null ? 0 : System.nanoTime();
  }

  /** From now on phases belong to trial {@code id}; what the last trial traced is written out. */
  public void trial(long id) {
    if (out == null) {
      return;
    }
    synchronized (this) {
      flush();
      trial = id;
    }
  }

  /** Records the controller's phase {@code phase} begun at {@code start}. */
  public void phase(Phase phase, long start) {
    if (out != null) {
      record(phase.traced(), "-", System.nanoTime() - start);
    }
  }

  @Override
  public void answered(String host, AgentVerb verb, long nanos) {
    if (out != null) {
      record(verb.wire(), host, nanos);
    }
  }

  private synchronized void record(String name, String host, long nanos) {
    pending
        .append(trial)
        .append('\t')
        .append(name)
        .append('\t')
        .append(host)
        .append('\t')
        .append(nanos / 1000)
        .append('\n');
  }

  private void flush() {
    try {
      out.write(pending.toString());
      out.flush();
    } catch (IOException e) {
      // a trace is a benchmark's aid: the run goes on without it
    }
    pending.setLength(0);
  }

  @Override
  public synchronized void close() {
    if (out != null) {
      flush();
      try {
        out.close();
      } catch (IOException e) {
        // as above
      }
    }
  }
}
