package io.tunelab.remote;

import java.io.IOException;
import java.time.Duration;
import java.util.Locale;

/**
 * {@code become: sudo}: every command of a host runs as root through {@code sudo -n -H sh -c}, on
 * top of a transport that logs in as an ordinary user. {@code -n} makes sudo fail instead of
 * prompting (nobody is there to type a password), and {@code -H} gives root's HOME so the agent's
 * cache lives under root's home. The wrapping lives here, not in the agent, so that every command
 * (agent install, the agent itself, setup and teardown steps) is wrapped the same way.
 */
public final class SudoTransport implements Transport {
  private static final Duration CHECK_TIMEOUT = Duration.ofSeconds(30);

  private final Transport inner;
  private final String user;

  /**
   * @param inner the login user's transport
   * @param user the login user, named in messages
   */
  public SudoTransport(Transport inner, String user) {
    this.inner = inner;
    this.user = user;
  }

  /** The command as sent to the login user's shell. */
  public static String wrap(String command) {
    return "sudo -n -H -- sh -c " + ShellQuote.quote(command);
  }

  /** The login user's transport underneath. */
  public Transport inner() {
    return inner;
  }

  @Override
  public String host() {
    return inner.host();
  }

  /**
   * Runs {@code true} through sudo once, so that a sudo that wants a password is reported before
   * anything else runs.
   *
   * @throws HostRefusedException when sudo would prompt, or is missing
   */
  public void check() {
    try {
      ExecResult result = exec("true", null, CHECK_TIMEOUT);
      if (result.exitCode() != 0) {
        throw new HostRefusedException(
            host(),
            "sudo -n true failed for user "
                + user
                + " (status "
                + result.exitCode()
                + "): "
                + result.stderrText().strip().lines().findFirst().orElse("no message"));
      }
    } catch (IOException e) {
      throw new HostRefusedException(host(), "cannot check sudo: " + e.getMessage());
    }
  }

  @Override
  public ExecResult exec(String command, byte[] stdin, Duration timeout) throws IOException {
    ExecResult result = inner.exec(wrap(command), stdin, timeout);
    String refusal = refusal(host(), user, result);
    if (refusal != null) {
      throw new HostRefusedException(host(), refusal);
    }
    return result;
  }

  /** Starts the command through sudo; {@code exec} leaves no shell between sudo and the channel. */
  @Override
  public Channel open(String command) throws IOException {
    return inner.open("exec " + wrap(command));
  }

  @Override
  public void close() throws IOException {
    inner.close();
  }

  /**
   * What sudo's own failure means for the user, or null when the command itself ran. Only sudo's
   * messages count: they start with {@code sudo:} and come with status 1 (or 127 for no sudo).
   */
  static String refusal(String host, String user, ExecResult result) {
    String stderr = result.stderrText().toLowerCase(Locale.ROOT);
    if (result.exitCode() == 1
        && (stderr.contains("sudo: a password is required")
            || stderr.contains("sudo: a terminal is required")
            || stderr.contains("no tty present"))) {
      return "sudo wants a password for user "
          + user
          + "; allow NOPASSWD for "
          + user
          + " in sudoers (e.g. '"
          + user
          + " ALL=(root) NOPASSWD: ALL' in /etc/sudoers.d/tunelab) or use user: root";
    }
    if (result.exitCode() == 1 && stderr.contains("is not in the sudoers file")) {
      return "user " + user + " may not use sudo; add it to sudoers or use user: root";
    }
    if (result.exitCode() == 127 && stderr.contains("sudo") && stderr.contains("not found")) {
      return "become: sudo, but sudo is not installed; install it or use user: root";
    }
    return null;
  }
}
