package io.tunelab.remote;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;

/**
 * A way to run shell commands on one host: the built-in local host or, later, SSH.
 *
 * <p>Two shapes of call are enough for everything tunelab does on a host: {@link #exec} for short
 * commands that run to completion (install the agent, a one-shot verb), and {@link #open} for the
 * long-lived agent process that answers one request per phase.
 */
public interface Transport extends AutoCloseable {

  /** The host's name as the user wrote it (inventory key, or {@code local}). */
  String host();

  /** Runs {@code command} with {@code sh -c}, feeding {@code stdin}, and waits for it. */
  ExecResult exec(String command, byte[] stdin, Duration timeout) throws IOException;

  /** Starts {@code command} with {@code sh -c} and returns its live streams. */
  Channel open(String command) throws IOException;

  @Override
  void close() throws IOException;

  /** The outcome of a command run to completion. */
  record ExecResult(int exitCode, byte[] stdout, byte[] stderr) {
    public String stdoutText() {
      return new String(stdout, java.nio.charset.StandardCharsets.UTF_8);
    }

    public String stderrText() {
      return new String(stderr, java.nio.charset.StandardCharsets.UTF_8);
    }
  }

  /** A running command: write its stdin, read its stdout and stderr. */
  interface Channel extends AutoCloseable {
    OutputStream stdin();

    InputStream stdout();

    InputStream stderr();

    /** True while the remote command runs. */
    boolean isOpen();

    @Override
    void close() throws IOException;
  }
}
