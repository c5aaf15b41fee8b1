package io.tunelab.remote;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.PublicKey;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.channel.ClientChannelEvent;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.config.keys.KeyUtils;

/**
 * A host reached over one SSH session: every command is an exec channel on that session, so the
 * handshake and login are paid once per host. Create it with {@link SshSessions#connect}.
 *
 * <p>Commands run with {@code sh -c} whatever the login shell is. A command that outlives its
 * {@code exec} timeout loses its channel but is not killed: it may run on until it next writes to
 * its closed output. Long work belongs to the agent, which times and cancels it on the host.
 */
public final class SshTransport implements Transport {
  private static final Duration CHANNEL_OPEN = Duration.ofSeconds(30);
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);
  private static final Map<String, Integer> SIGNALS =
      Map.ofEntries(
          Map.entry("HUP", 1),
          Map.entry("INT", 2),
          Map.entry("QUIT", 3),
          Map.entry("ILL", 4),
          Map.entry("ABRT", 6),
          Map.entry("FPE", 8),
          Map.entry("KILL", 9),
          Map.entry("USR1", 10),
          Map.entry("SEGV", 11),
          Map.entry("USR2", 12),
          Map.entry("PIPE", 13),
          Map.entry("ALRM", 14),
          Map.entry("TERM", 15));

  private final String host;
  private final String user;
  private final String login;
  private final ClientSession session;

  SshTransport(String host, String user, String login, ClientSession session) {
    this.host = host;
    this.user = user;
    this.login = login;
    this.session = session;
  }

  @Override
  public String host() {
    return host;
  }

  /** {@code user@hostname:port} as logged in, for messages. */
  public String login() {
    return login;
  }

  /** The user logged in as. */
  public String user() {
    return user;
  }

  /** True while the SSH session is up. */
  /** The fingerprint ({@code SHA256:…}) of the key the server presented; null when unknown. */
  public String hostKey() {
    PublicKey key = session.getServerKey();
    return key == null ? null : KeyUtils.getFingerPrint(key);
  }

  public boolean isOpen() {
    return session.isOpen() && !session.isClosing();
  }

  @Override
  public ExecResult exec(String command, byte[] stdin, Duration timeout) throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    ChannelExec channel = newChannel(command);
    // SSHD writes both streams into these buffers as data arrives, so neither can stall the other.
    channel.setOut(out);
    channel.setErr(err);
    channel.setIn(new ByteArrayInputStream(stdin == null ? new byte[0] : stdin));
    try {
      openChannel(channel);
      long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
      Set<ClientChannelEvent> events = channel.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), left);
      if (events.contains(ClientChannelEvent.TIMEOUT)) {
        String after =
            timeout.toMillis() < 1000 ? timeout.toMillis() + " ms" : timeout.toSeconds() + " s";
        throw new IOException("host " + host + ": timed out after " + after + ": " + command);
      }
      return new ExecResult(exitCode(channel, command), out.toByteArray(), err.toByteArray());
    } finally {
      channel.close(true);
    }
  }

  @Override
  public Channel open(String command) throws IOException {
    ChannelExec channel = newChannel(command);
    openChannel(channel);
    return new SshChannel(channel);
  }

  @Override
  public void close() {
    try {
      session.close(false).await(CLOSE_WAIT);
    } catch (IOException e) {
      session.close(true);
    }
  }

  private ChannelExec newChannel(String command) throws IOException {
    if (!isOpen()) {
      throw new IOException("host " + host + ": the SSH connection to " + login + " is closed");
    }
    return session.createExecChannel(ShellQuote.shC(command));
  }

  private void openChannel(ChannelExec channel) throws IOException {
    try {
      channel.open().verify(CHANNEL_OPEN);
    } catch (IOException | RuntimeException e) {
      channel.close(true);
      throw new IOException(
          "host " + host + ": cannot start a command over SSH (" + login + "): " + reason(e), e);
    }
  }

  private int exitCode(ChannelExec channel, String command) throws IOException {
    Integer status = channel.getExitStatus();
    if (status != null) {
      return status;
    }
    String signal = channel.getExitSignal();
    if (signal != null) {
      return 128 + SIGNALS.getOrDefault(signal, 127);
    }
    throw new IOException(
        "host " + host + ": the SSH connection was lost while running: " + command);
  }

  private static String reason(Throwable e) {
    String message = e.getMessage();
    return message == null ? e.getClass().getSimpleName() : message;
  }

  /** A long-lived command: its streams flow as data arrives, not when the command exits. */
  private record SshChannel(ChannelExec channel) implements Channel {
    @Override
    public OutputStream stdin() {
      return channel.getInvertedIn();
    }

    @Override
    public InputStream stdout() {
      return channel.getInvertedOut();
    }

    @Override
    public InputStream stderr() {
      return channel.getInvertedErr();
    }

    @Override
    public boolean isOpen() {
      return channel.isOpen() && !channel.isClosing() && channel.getExitStatus() == null;
    }

    /** Closes stdin, gives the command a few seconds to exit, then closes the channel. */
    @Override
    public void close() throws IOException {
      try {
        channel.getInvertedIn().close();
      } catch (IOException e) {
        // the channel is closing already
      }
      channel.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), CLOSE_WAIT);
      channel.close(false).await(CLOSE_WAIT);
    }
  }
}
