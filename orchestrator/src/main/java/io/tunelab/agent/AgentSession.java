package io.tunelab.agent;

import io.tunelab.agents.AgentScript;
import io.tunelab.remote.Transport;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One long-lived agent process on one host, spoken to over a single channel.
 *
 * <p>Every phase of a trial is one request and one response on this channel: no process start, no
 * SSH channel, no login shell per phase. Requests are serialized.
 */
public final class AgentSession implements AutoCloseable {
  private static final String EOF = "\u0000eof";
  private static final int STDERR_LINES = 20;

  private final Transport transport;
  private final String remotePath;
  private final Transport.Channel channel;
  private final OutputStream requests;
  private final BlockingQueue<String> responses = new LinkedBlockingQueue<>();
  private final Deque<String> stderrTail = new ArrayDeque<>();

  private AgentSession(Transport transport, String remotePath, Transport.Channel channel) {
    this.transport = transport;
    this.remotePath = remotePath;
    this.channel = channel;
    this.requests = channel.stdin();
    startReader("tunelab-agent-out-" + transport.host(), channel, false);
    startReader("tunelab-agent-err-" + transport.host(), channel, true);
  }

  /** Ships the agent to the host when its cached copy is missing or differs, then starts it. */
  public static AgentSession start(Transport transport, AgentScript script) {
    String path = AgentInstaller.install(transport, script);
    try {
      return new AgentSession(transport, path, transport.open("exec sh " + path + " serve"));
    } catch (IOException e) {
      throw new AgentException(transport.host(), "cannot start the agent: " + e.getMessage(), e);
    }
  }

  /**
   * Runs one verb as a separate one-shot agent process (no lock, no long-lived channel): for {@code
   * restore} after a crash, while a stale agent may still hold the lock.
   */
  public static AgentResponse oneShot(Transport transport, AgentScript script, String verb) {
    String path = AgentInstaller.install(transport, script);
    try {
      Transport.ExecResult result =
          transport.exec(
              "exec sh " + path + " " + verb, new byte[0], java.time.Duration.ofMinutes(5));
      List<String> lines = result.stdoutText().lines().toList();
      if (result.exitCode() != 0 && lines.isEmpty()) {
        throw new AgentException(
            transport.host(), "'" + verb + "' failed: " + result.stderrText().trim());
      }
      return new AgentResponse(transport.host(), verb, result.exitCode(), lines);
    } catch (IOException e) {
      throw new AgentException(transport.host(), "'" + verb + "' failed: " + e.getMessage(), e);
    }
  }

  public String host() {
    return transport.host();
  }

  public Transport transport() {
    return transport;
  }

  /** Where the agent script lives on the host, for one-shot calls such as {@code cancel}. */
  public String remotePath() {
    return remotePath;
  }

  /** Sends one request and waits up to {@code timeout} for its answer. */
  public synchronized AgentResponse request(String verb, List<String> payload, Duration timeout) {
    StringBuilder text = new StringBuilder(verb).append(' ').append(payload.size()).append('\n');
    for (String line : payload) {
      if (line.indexOf('\n') >= 0) {
        throw new IllegalArgumentException("agent payload line contains a newline: " + line);
      }
      text.append(line).append('\n');
    }
    try {
      requests.write(text.toString().getBytes(StandardCharsets.UTF_8));
      requests.flush();
    } catch (IOException e) {
      throw lost("cannot send '" + verb + "'", e);
    }
    List<String> lines = new ArrayList<>();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      String line;
      try {
        line = responses.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw lost("interrupted while waiting for '" + verb + "'", e);
      }
      if (line == null) {
        throw lost("no answer to '" + verb + "' within " + timeout.toSeconds() + " s", null);
      }
      if (line == EOF) {
        throw lost("the agent exited during '" + verb + "'", null);
      }
      if (line.startsWith("|")) {
        lines.add(line.substring(1));
      } else if (line.startsWith("$ ")) {
        return new AgentResponse(host(), verb, Integer.parseInt(line.substring(2).trim()), lines);
      } else {
        throw lost("unexpected line from the agent: " + line, null);
      }
    }
  }

  /** Sends a request that must succeed; a non-zero status becomes an {@link AgentException}. */
  public AgentResponse require(String verb, List<String> payload, Duration timeout) {
    AgentResponse response = request(verb, payload, timeout);
    if (!response.ok()) {
      throw new AgentException(
          host(), "'" + verb + "' failed (status " + response.status() + ")" + stderrSuffix());
    }
    return response;
  }

  /** The agent's last lines of stderr, for messages. */
  public String stderrSuffix() {
    synchronized (stderrTail) {
      return stderrTail.isEmpty() ? "" : ": " + String.join(" | ", stderrTail);
    }
  }

  private AgentException lost(String what, Throwable cause) {
    return new AgentException(host(), what + stderrSuffix(), cause);
  }

  private void startReader(String name, Transport.Channel channel, boolean stderr) {
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(
                      new InputStreamReader(
                          stderr ? channel.stderr() : channel.stdout(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                  if (stderr) {
                    keepStderr(line);
                  } else {
                    responses.add(line);
                  }
                }
              } catch (IOException e) {
                // the channel closed; EOF below tells any waiting request
              }
              if (!stderr) {
                responses.add(EOF);
              }
            },
            name);
    reader.setDaemon(true);
    reader.start();
  }

  private void keepStderr(String line) {
    synchronized (stderrTail) {
      if (stderrTail.size() == STDERR_LINES) {
        stderrTail.removeFirst();
      }
      stderrTail.addLast(line);
    }
  }

  /** Closes the agent's stdin; the agent exits and releases its lock. */
  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      // the agent is gone already
    }
  }
}
