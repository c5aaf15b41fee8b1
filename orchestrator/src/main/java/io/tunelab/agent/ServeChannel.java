package io.tunelab.agent;

import io.tunelab.remote.Transport;
import java.io.IOException;
import java.io.InputStream;
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
 * The framing of the agent's {@code serve} mode on one channel: a header {@code VERB N SEQ}, the
 * payload, and an answer of {@code |}-lines closed by {@code $ RC SEQ}.
 *
 * <p>Every request gets the next sequence number, and only the answer that echoes it is taken: an
 * answer to an earlier request is discarded with its lines. A request that gets no answer in time
 * (or whose wait is interrupted) closes the channel for good, because its answer may still come and
 * the agent may still be busy with it; every later request fails at once.
 */
final class ServeChannel implements AutoCloseable {
  private static final String EOF = "\u0000eof";
  private static final int STDERR_LINES = 20;

  private final String host;
  private final Transport.Channel channel;
  private final BlockingQueue<String> incoming = new LinkedBlockingQueue<>();
  private final Deque<String> stderrTail = new ArrayDeque<>();
  private final RequestTimer timer;
  private long lastSeq;
  private long discarded;
  private volatile String closedBecause;

  ServeChannel(String host, Transport.Channel channel, RequestTimer timer) {
    this.host = host;
    this.channel = channel;
    this.timer = timer;
    startReader("tunelab-agent-out-" + host, false);
    startReader("tunelab-agent-err-" + host, true);
  }

  /** Sends one request and waits up to {@code wait} for the answer that carries its number. */
  synchronized Answer exchange(AgentVerb verb, List<String> payload, Duration wait) {
    if (closedBecause != null) {
      throw new AgentException(
          host, "the agent session was closed " + closedBecause + "; '" + verb + "' not sent");
    }
    long seq = ++lastSeq;
    long sent = System.nanoTime();
    StringBuilder text = new StringBuilder(verb.wire());
    text.append(' ').append(payload.size()).append(' ').append(seq).append('\n');
    for (String line : payload) {
      if (line.indexOf('\n') >= 0) {
        throw new IllegalArgumentException("agent payload line contains a newline: " + line);
      }
      text.append(line).append('\n');
    }
    try {
      OutputStream requests = channel.stdin();
      requests.write(text.toString().getBytes(StandardCharsets.UTF_8));
      requests.flush();
    } catch (IOException e) {
      throw shut("after a failed send", "cannot send '" + verb + "'", e);
    }
    List<String> lines = new ArrayList<>();
    long deadline = System.nanoTime() + wait.toNanos();
    while (true) {
      String line;
      try {
        line = incoming.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw shut("after an interrupt", "interrupted while waiting for '" + verb + "'", e);
      }
      if (line == null) {
        String what = "no answer to '" + verb + "' within " + shown(wait);
        throw shut("after a timeout (" + what + ")", what, null);
      }
      if (line == EOF) {
        // The agent died, or the connection under it did (sshd gone, keepalives unanswered).
        throw shut(
            "after the agent or its connection went away",
            "the agent or its connection went away during '" + verb + "'",
            null);
      }
      if (line.startsWith("|")) {
        lines.add(line.substring(1));
      } else if (line.startsWith("$ ")) {
        String[] status = line.substring(2).trim().split(" ");
        if (status.length != 2 || !isNumber(status[0]) || !isNumber(status[1])) {
          throw shut("after a protocol error", "unexpected status line: " + line, null);
        }
        if (Long.parseLong(status[1]) == seq) {
          timer.answered(host, verb, System.nanoTime() - sent);
          return new Answer(host, verb, Integer.parseInt(status[0]), lines);
        }
        // the answer to an earlier request that was given up on: never this one's
        discarded++;
        lines.clear();
      } else {
        throw shut("after a protocol error", "unexpected line from the agent: " + line, null);
      }
    }
  }

  /**
   * False once a request failed (the channel is closed for good) or the agent's command ended: the
   * session can never answer again.
   */
  boolean isOpen() {
    return closedBecause == null && channel.isOpen();
  }

  /** How many stale answers were discarded, for tests. */
  synchronized long discarded() {
    return discarded;
  }

  /** The agent's last lines of stderr, for messages. */
  String stderrSuffix() {
    synchronized (stderrTail) {
      return stderrTail.isEmpty() ? "" : ": " + String.join(" | ", stderrTail);
    }
  }

  /** Closes the channel so that nothing is ever read from it again, and says why. */
  private AgentException shut(String reason, String what, Throwable cause) {
    AgentException failure =
        new AgentException(host, what + " (the session is closed)" + stderrSuffix(), cause);
    closedBecause = reason;
    closeChannel();
    return failure;
  }

  private static boolean isNumber(String text) {
    return !text.isEmpty() && text.length() < 19 && text.chars().allMatch(Character::isDigit);
  }

  private static String shown(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
  }

  private void startReader(String name, boolean stderr) {
    Thread reader =
        new Thread(
            () -> {
              try (InputStream stream = stderr ? channel.stderr() : channel.stdout()) {
                LineFrames in = new LineFrames(stream);
                for (String line = in.next(); line != null; line = in.next()) {
                  if (stderr) {
                    keepStderr(line);
                  } else {
                    incoming.add(line);
                  }
                }
              } catch (Throwable e) {
                // The channel closed, or reading it failed in any way (even out of memory): EOF
                // below tells any waiting request instead of leaving it to wait for its timeout.
              }
              if (!stderr) {
                incoming.add(EOF);
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

  private void closeChannel() {
    try {
      channel.close();
    } catch (IOException e) {
      // the agent is gone already
    }
  }

  /** Closes the agent's stdin; the agent finishes its request, exits and releases its lock. */
  @Override
  public void close() {
    if (closedBecause == null) {
      closedBecause = "by the controller";
    }
    closeChannel();
  }
}
