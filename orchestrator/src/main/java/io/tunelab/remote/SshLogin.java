package io.tunelab.remote;

import io.tunelab.inventory.HostSpec;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.config.hosts.HostConfigEntry;
import org.apache.sshd.client.future.ConnectFuture;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.AttributeRepository;
import org.apache.sshd.common.keyprovider.KeyIdentityProvider;
import org.apache.sshd.common.util.net.SshdSocketAddress;

/**
 * Logging in to one host: resolve it through the SSH config, read its keys, connect with its own
 * host key check, authenticate. Every failure becomes a one-line {@link HostRefusedException} that
 * says what to fix.
 */
final class SshLogin {
  private final HostSpec spec;
  private final SshOptions options;
  private final SshConfig config;
  private final boolean agent;
  private final HostKeyPins pins;
  private final HostConfigEntry target;
  private final String login;

  SshLogin(HostSpec spec, SshOptions options, SshConfig config, boolean agent, HostKeyPins pins) {
    this.spec = spec;
    this.options = options;
    this.config = config;
    this.agent = agent;
    this.pins = pins;
    this.target = config.resolve(spec);
    this.login = target.getUsername() + "@" + target.getHostName() + ":" + target.getPort();
  }

  SshTransport run(SshClient client) {
    boolean identitiesOnly = target.isIdentitiesOnly();
    SshIdentities ids =
        SshIdentities.load(
            spec, List.copyOf(target.getIdentities()), agent && !identitiesOnly, options);
    // The session gets exactly the keys loaded above; SSHD must not load the files again.
    target.setIdentities(List.of());
    HostKeyCheck check = hostKeyCheck();
    AttributeRepository context =
        AttributeRepository.ofAttributesMap(
            Map.of(HostKeyCheck.KEY, check, SshAgentSocket.SKIP, identitiesOnly));
    ClientSession session = connect(client, context, check);
    try {
      session.setKeyIdentityProvider(KeyIdentityProvider.wrapKeyPairs(ids.keys()));
      session.auth().verify(options.authTimeout());
      return new SshTransport(spec.name(), target.getUsername(), login, session);
    } catch (IOException | RuntimeException e) {
      session.close(true);
      if (check.refusal() != null || session.getServerKey() == null) {
        throw refused(check, e, "SSH handshake with " + login + " failed", options.authTimeout());
      }
      throw new HostRefusedException(spec.name(), authFailure(ids, agent && !identitiesOnly));
    }
  }

  private HostKeyCheck hostKeyCheck() {
    Path knownHosts =
        spec.knownHosts() == null ? options.defaultKnownHosts() : options.expand(spec.knownHosts());
    List<SshdSocketAddress> endpoints = new ArrayList<>();
    endpoints.add(new SshdSocketAddress(target.getHostName(), target.getPort()));
    for (HostConfigEntry jump : config.jumps(target)) {
      endpoints.add(new SshdSocketAddress(jump.getHostName(), jump.getPort()));
    }
    return new HostKeyCheck(spec.hostKey(), knownHosts, endpoints, pins);
  }

  private ClientSession connect(SshClient client, AttributeRepository context, HostKeyCheck check) {
    ConnectFuture future = null;
    try {
      future = client.connect(target, context, null);
      return future.verify(options.connectTimeout()).getSession();
    } catch (IOException | RuntimeException e) {
      if (future != null) {
        future.cancel();
      }
      String jump = target.getProxyJump();
      String what =
          "cannot connect to "
              + login
              + (jump == null || jump.isBlank() ? "" : " through ProxyJump " + jump);
      throw refused(check, e, what, options.connectTimeout());
    }
  }

  private String authFailure(SshIdentities ids, boolean withAgent) {
    List<String> offered = new ArrayList<>(ids.offered());
    if (withAgent) {
      offered.add("ssh-agent");
    }
    String user = target.getUsername();
    StringBuilder message =
        new StringBuilder("authentication as ")
            .append(user)
            .append(" failed at ")
            .append(target.getHostName())
            .append(':')
            .append(target.getPort())
            .append(" (offered: ")
            .append(offered.isEmpty() ? "no keys" : String.join(", ", offered))
            .append(')');
    if (!ids.skipped().isEmpty()) {
      message.append("; skipped ").append(String.join(", ", ids.skipped()));
    }
    return message
        .append("; check user: and identity: for ")
        .append(spec.name())
        .append(" in ")
        .append(spec.source())
        .append(", and that the public key is in ~")
        .append(user)
        .append("/.ssh/authorized_keys on the host")
        .toString();
  }

  /** Which SSH config files gave no HostName for the address, for "unknown host name". */
  private String configsRead() {
    List<Path> files = config.files();
    return files.isEmpty()
        ? " (no SSH config was read)"
        : " (SSH config read: "
            + files.stream().map(Path::toString).collect(Collectors.joining(", "))
            + ")";
  }

  /** A connection failure as the user should read it: the host key, the network, or else. */
  private HostRefusedException refused(
      HostKeyCheck check, Throwable e, String what, Duration waited) {
    if (check.refusal() != null) {
      return new HostRefusedException(spec.name(), check.refusal());
    }
    String fix = "; check address: and port: for " + spec.name() + " in " + spec.source();
    for (Throwable t = e; t != null; t = t.getCause()) {
      String message = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
      if (t instanceof ConnectException) {
        return new HostRefusedException(
            spec.name(), what + ": connection refused (is sshd running there?)" + fix);
      }
      if (t instanceof UnknownHostException || t instanceof UnresolvedAddressException) {
        return new HostRefusedException(
            spec.name(),
            what + ": unknown host name " + target.getHostName() + configsRead() + fix);
      }
      if (t instanceof NoRouteToHostException) {
        return new HostRefusedException(spec.name(), what + ": no route to host" + fix);
      }
      if (t instanceof SocketTimeoutException
          || message.contains("timeout")
          || message.contains("timed out")) {
        return new HostRefusedException(
            spec.name(), what + ": no answer within " + waited.toSeconds() + " s" + fix);
      }
    }
    String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    if (reason.toLowerCase(Locale.ROOT).contains("authentication")) {
      // Targets log in after connecting; only a ProxyJump host logs in during connect.
      return new HostRefusedException(
          spec.name(),
          what
              + ": the jump host refused the login; check its User and IdentityFile in the SSH"
              + " config, or add its key to ssh-agent");
    }
    return new HostRefusedException(
        spec.name(), what + ": " + reason.lines().findFirst().orElse(""));
  }
}
