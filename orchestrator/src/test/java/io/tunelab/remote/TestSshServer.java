package io.tunelab.remote;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.KeyPair;
import java.security.PublicKey;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.keyprovider.KeyPairProvider;
import org.apache.sshd.common.session.Session;
import org.apache.sshd.common.session.SessionListener;
import org.apache.sshd.server.Environment;
import org.apache.sshd.server.ExitCallback;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.channel.ChannelSession;
import org.apache.sshd.server.command.Command;
import org.apache.sshd.server.forward.AcceptAllForwardingFilter;

/**
 * An SSH server on 127.0.0.1 and a random port that runs commands with the local {@code sh}, as the
 * user running the tests. It counts sessions and remembers who logged in.
 */
final class TestSshServer implements AutoCloseable {
  final KeyPair hostKey;
  final AtomicInteger sessions = new AtomicInteger();

  /** Users that logged in (SSH asks the authenticator twice per key: once without a signature). */
  final Set<String> users = ConcurrentHashMap.newKeySet();

  private final Set<PublicKey> authorized = ConcurrentHashMap.newKeySet();
  private final Map<String, String> env;
  private final SshServer server;

  private TestSshServer(KeyPair hostKey, Map<String, String> env) throws IOException {
    this.hostKey = hostKey;
    this.env = env;
    server = SshServer.setUpDefaultServer();
    server.setHost("127.0.0.1");
    server.setPort(0);
    server.setKeyPairProvider(KeyPairProvider.wrap(hostKey));
    server.setPasswordAuthenticator(null);
    server.setKeyboardInteractiveAuthenticator(null);
    server.setPublickeyAuthenticator(
        (user, key, session) -> {
          boolean ok = authorized.stream().anyMatch(k -> KeyUtils.compareKeys(k, key));
          if (ok) {
            users.add(user);
          }
          return ok;
        });
    org.apache.sshd.core.CoreModuleProperties.TCP_NODELAY.set(server, true);
    server.setForwardingFilter(AcceptAllForwardingFilter.INSTANCE);
    server.setCommandFactory((channel, command) -> new ShellCommand(command, this.env));
    server.addSessionListener(
        new SessionListener() {
          @Override
          public void sessionCreated(Session session) {
            sessions.incrementAndGet();
          }
        });
    server.start();
  }

  static TestSshServer start() throws Exception {
    return start(Map.of());
  }

  /** A server whose commands see {@code env} on top of this process's environment. */
  static TestSshServer start(Map<String, String> env) throws Exception {
    return new TestSshServer(newHostKey(), env);
  }

  static TestSshServer start(KeyPair hostKey) throws Exception {
    return new TestSshServer(hostKey, Map.of());
  }

  static KeyPair newHostKey() throws Exception {
    return KeyUtils.generateKeyPair(KeyPairProvider.ECDSA_SHA2_NISTP256, 256);
  }

  void setKeys(KeyPair... keys) {
    server.setKeyPairProvider(KeyPairProvider.wrap(keys));
  }

  int port() {
    return server.getPort();
  }

  void authorize(PublicKey key) {
    authorized.add(key);
  }

  /** This server's line for a known_hosts file. */
  String knownHostsLine() {
    return "[127.0.0.1]:" + port() + " " + PublicKeyEntry.toString(hostKey.getPublic()) + "\n";
  }

  String fingerprint() {
    return KeyUtils.getFingerPrint(hostKey.getPublic());
  }

  @Override
  public void close() throws IOException {
    server.stop(true);
  }

  /** Runs one command with {@code sh -c}, pumping the three streams on threads of their own. */
  private static final class ShellCommand implements Command {
    private final String command;
    private final Map<String, String> env;
    private InputStream in;
    private OutputStream out;
    private OutputStream err;
    private ExitCallback exit;
    private Process process;

    ShellCommand(String command, Map<String, String> env) {
      this.command = command;
      this.env = env;
    }

    @Override
    public void setInputStream(InputStream in) {
      this.in = in;
    }

    @Override
    public void setOutputStream(OutputStream out) {
      this.out = out;
    }

    @Override
    public void setErrorStream(OutputStream err) {
      this.err = err;
    }

    @Override
    public void setExitCallback(ExitCallback exit) {
      this.exit = exit;
    }

    @Override
    public void start(ChannelSession channel, Environment environment) throws IOException {
      ProcessBuilder builder = new ProcessBuilder("sh", "-c", command);
      builder.environment().putAll(env);
      process = builder.start();
      thread(() -> pump(in, process.getOutputStream(), true));
      Thread stdout = thread(() -> pump(process.getInputStream(), out, false));
      Thread stderr = thread(() -> pump(process.getErrorStream(), err, false));
      thread(
          () -> {
            try {
              int code = process.waitFor();
              stdout.join();
              stderr.join();
              exit.onExit(code);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          });
    }

    @Override
    public void destroy(ChannelSession channel) {
      if (process != null) {
        process.destroyForcibly();
      }
    }

    private static Thread thread(Runnable body) {
      Thread t = new Thread(body, "test-sshd-pump");
      t.setDaemon(true);
      t.start();
      return t;
    }

    private static void pump(InputStream from, OutputStream to, boolean closeAtEnd) {
      byte[] buffer = new byte[32768];
      try {
        for (int n = from.read(buffer); n >= 0; n = from.read(buffer)) {
          to.write(buffer, 0, n);
          to.flush();
        }
      } catch (IOException e) {
        // the channel or the process went away
      } finally {
        if (closeAtEnd) {
          try {
            to.close();
          } catch (IOException e) {
            // gone already
          }
        }
      }
    }
  }
}
