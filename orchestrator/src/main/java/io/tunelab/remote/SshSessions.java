package io.tunelab.remote;

import io.tunelab.inventory.Become;
import io.tunelab.inventory.HostSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.kex.KexProposalOption;
import org.apache.sshd.common.session.Session;
import org.apache.sshd.common.session.SessionListener;
import org.apache.sshd.core.CoreModuleProperties;

/**
 * The process's one SSH client and its sessions, one per host and reused for every command. The
 * client starts on the first connection, so runs on {@code local} alone start no SSH threads.
 */
public final class SshSessions implements AutoCloseable {
  private static final int KEEPALIVE_MISSES = 4;

  private final SshOptions options;
  private final Map<String, Object> locks = new ConcurrentHashMap<>();
  private final Map<String, Transport> open = new ConcurrentHashMap<>();
  private final HostKeyPins pins = new HostKeyPins();
  private SshClient client;
  private SshConfig config;
  private boolean agent;

  public SshSessions(SshOptions options) {
    this.options = options;
  }

  /**
   * The transport to {@code spec}'s host: the open one, or a new session after connecting, checking
   * the host key and logging in. With {@code become: sudo} commands run through {@code sudo -n},
   * checked once here.
   *
   * @throws HostRefusedException (exit code 3) saying what to fix
   */
  public Transport connect(HostSpec spec) {
    synchronized (locks.computeIfAbsent(spec.name(), k -> new Object())) {
      Transport existing = open.get(spec.name());
      if (existing != null && isOpen(existing)) {
        return existing;
      }
      SshClient started = client();
      SshTransport ssh = new SshLogin(spec, options, config, agent, pins).run(started);
      Transport transport = ssh;
      if (spec.become() == Become.SUDO) {
        SudoTransport sudo = new SudoTransport(ssh, ssh.user());
        try {
          sudo.check();
        } catch (RuntimeException e) {
          ssh.close();
          throw e;
        }
        transport = sudo;
      }
      open.put(spec.name(), transport);
      return transport;
    }
  }

  /**
   * The fingerprint ({@code SHA256:…}) of the host key {@code host}'s open session was verified
   * with; null without one.
   */
  public String hostKey(String host) {
    Transport t = open.get(host);
    if (t == null) {
      return null;
    }
    Transport ssh = t instanceof SudoTransport sudo ? sudo.inner() : t;
    return ((SshTransport) ssh).hostKey();
  }

  private static boolean isOpen(Transport transport) {
    Transport ssh = transport instanceof SudoTransport sudo ? sudo.inner() : transport;
    return ((SshTransport) ssh).isOpen();
  }

  private synchronized SshClient client() {
    if (client == null) {
      config = SshConfig.read(options.sshConfig(), options.localUser());
      SshClient c = SshClient.setUpDefaultClient();
      c.setHostConfigEntryResolver(config.resolver());
      c.setServerKeyVerifier(HostKeyCheck.dispatcher());
      c.addSessionListener(
          new SessionListener() {
            @Override
            public void sessionNegotiationOptionsCreated(
                Session session, Map<KexProposalOption, String> proposal) {
              HostKeyCheck.preferKnownKeyTypes(session, proposal);
            }
          });
      // Only keys: never a password or keyboard prompt in an unattended run.
      CoreModuleProperties.PREFERRED_AUTHS.set(c, "publickey");
      // What ProxyJump hosts get (targets get their own keys in SshLogin): the default key
      // files, and for the config's IdentityFile of a jump host, the default passphrase variable.
      c.setKeyIdentityProvider(session -> SshIdentities.defaultKeys(options));
      String passphrase = options.env().apply(HostSpec.DEFAULT_PASSPHRASE_ENV);
      if (passphrase != null && !passphrase.isEmpty()) {
        c.setFilePasswordProvider(FilePasswordProvider.of(passphrase));
      }
      Path socket = SshAgentSocket.find(options.env());
      agent = socket != null;
      if (agent) {
        c.setAgentFactory(SshAgentSocket.factory(socket));
      }
      CoreModuleProperties.IO_CONNECT_TIMEOUT.set(c, options.connectTimeout());
      // Requests to the agent are small; Nagle plus delayed ACKs would add ~40 ms to each.
      CoreModuleProperties.TCP_NODELAY.set(c, true);
      CoreModuleProperties.SOCKET_KEEPALIVE.set(c, true);
      CoreModuleProperties.HEARTBEAT_INTERVAL.set(c, options.keepalive());
      CoreModuleProperties.HEARTBEAT_REQUEST.set(c, "keepalive@openssh.com");
      CoreModuleProperties.HEARTBEAT_NO_REPLY_MAX.set(c, KEEPALIVE_MISSES);
      // Keepalives detect dead hosts; an idle limit would drop an agent waiting out a long trial.
      CoreModuleProperties.IDLE_TIMEOUT.set(c, Duration.ZERO);
      c.start();
      client = c;
    }
    return client;
  }

  /** Closes {@code host}'s session, if one is open; the next {@link #connect} logs in anew. */
  public void drop(String host) {
    synchronized (locks.computeIfAbsent(host, k -> new Object())) {
      Transport t = open.remove(host);
      if (t != null) {
        try {
          t.close();
        } catch (IOException | RuntimeException e) {
          // gone either way
        }
      }
    }
  }

  /** Closes every session and stops the client. */
  @Override
  public synchronized void close() {
    for (Transport t : open.values()) {
      try {
        t.close();
      } catch (IOException | RuntimeException e) {
        // closing anyway
      }
    }
    open.clear();
    if (client != null) {
      client.stop();
      client = null;
    }
  }
}
