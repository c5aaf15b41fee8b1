package io.tunelab.remote;

import io.tunelab.inventory.HostKeyPolicy;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.sshd.client.config.hosts.KnownHostEntry;
import org.apache.sshd.client.keyverifier.AcceptAllServerKeyVerifier;
import org.apache.sshd.client.keyverifier.KnownHostsServerKeyVerifier;
import org.apache.sshd.client.keyverifier.ServerKeyVerifier;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.client.session.ClientSessionCreator;
import org.apache.sshd.common.AttributeRepository;
import org.apache.sshd.common.AttributeRepository.AttributeKey;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.kex.KexProposalOption;
import org.apache.sshd.common.session.Session;
import org.apache.sshd.common.util.net.SshdSocketAddress;

/**
 * Checks one connection's host key against a known_hosts file, and remembers why it refused a key
 * so that the user reads what to do instead of "key exchange failed".
 */
final class HostKeyCheck extends KnownHostsServerKeyVerifier {
  /** Where a connection carries its check, so one client serves hosts with different files. */
  static final AttributeKey<HostKeyCheck> KEY = new AttributeKey<>();

  private final HostKeyPolicy policy;
  private final Path file;
  private final List<SshdSocketAddress> endpoints;
  private final HostKeyPins pins;
  private volatile String refusal;

  /**
   * @param endpoints the hosts this connection meets: the target and any ProxyJump hosts
   * @param pins the keys this process has seen, which a reconnect must show again
   */
  HostKeyCheck(
      HostKeyPolicy policy, Path file, List<SshdSocketAddress> endpoints, HostKeyPins pins) {
    super(AcceptAllServerKeyVerifier.INSTANCE, file);
    this.policy = policy;
    this.file = file;
    this.endpoints = List.copyOf(endpoints);
    this.pins = pins;
    setModifiedServerKeyAcceptor(this::changed);
  }

  /**
   * A known_hosts that exists but cannot be read refuses every key (SSHD would fall back to its
   * delegate, which accepts all); a key that passes must be the one this process saw first.
   */
  @Override
  public boolean verifyServerKey(ClientSession session, SocketAddress remote, PublicKey key) {
    String where = where(session, remote);
    if (Files.exists(file) && (!Files.isRegularFile(file) || !Files.isReadable(file))) {
      refusal =
          "cannot check the host key of "
              + where
              + ": known_hosts "
              + file
              + (Files.isDirectory(file) ? " is a directory" : " cannot be read")
              + "; point known_hosts: at a file";
      return false;
    }
    if (!super.verifyServerKey(session, remote, key)) {
      return false;
    }
    PublicKey pinned = pins.pin(where, key);
    if (pinned != null) {
      refusal =
          "the host key of "
              + where
              + " changed during this run (now "
              + describe(key)
              + ", first "
              + describe(pinned)
              + "); someone may be intercepting the connection";
      return false;
    }
    return true;
  }

  /**
   * Puts the host key algorithms known_hosts already has keys for first in the client's proposal,
   * as OpenSSH does. Without this, a host with ed25519 and ECDSA keys that known_hosts knows by its
   * ed25519 key would show its ECDSA key and look changed.
   */
  static void preferKnownKeyTypes(Session session, Map<KexProposalOption, String> proposal) {
    AttributeRepository context =
        session instanceof ClientSession client ? client.getConnectionContext() : null;
    HostKeyCheck check = context == null ? null : context.getAttribute(KEY);
    String offered = proposal.get(KexProposalOption.SERVERKEYS);
    if (check == null || offered == null) {
      return;
    }
    Set<String> known = check.knownKeyTypes();
    List<String> first = new ArrayList<>();
    List<String> rest = new ArrayList<>();
    for (String algorithm : offered.split(",")) {
      String type = KeyUtils.getCanonicalKeyType(algorithm);
      (known.contains(type == null ? algorithm : type) ? first : rest).add(algorithm);
    }
    first.addAll(rest);
    proposal.put(KexProposalOption.SERVERKEYS, String.join(",", first));
  }

  /** The key types known_hosts lists for this connection's hosts. */
  Set<String> knownKeyTypes() {
    Set<String> types = new HashSet<>();
    if (!Files.isRegularFile(file)) {
      return types;
    }
    try {
      for (KnownHostEntry entry : KnownHostEntry.readKnownHostEntries(file)) {
        boolean plain = entry.getMarker() == null && entry.getKeyEntry() != null;
        if (plain
            && endpoints.stream().anyMatch(e -> entry.isHostMatch(e.getHostName(), e.getPort()))) {
          types.add(entry.getKeyEntry().getKeyType());
        }
      }
    } catch (IOException | RuntimeException e) {
      // the check itself reads the file again and reports what is wrong with it
    }
    return types;
  }

  /** The client-wide verifier: each connection's own check, and no check means no trust. */
  static ServerKeyVerifier dispatcher() {
    return (session, remote, key) -> {
      AttributeRepository context = session.getConnectionContext();
      HostKeyCheck check = context == null ? null : context.getAttribute(KEY);
      return check != null && check.verifyServerKey(session, remote, key);
    };
  }

  /** Why the key was refused, or null. */
  String refusal() {
    return refusal;
  }

  @Override
  protected boolean acceptUnknownHostKey(
      ClientSession session, SocketAddress remote, PublicKey key) {
    String where = where(session, remote);
    if (policy == HostKeyPolicy.ACCEPT_NEW) {
      // A key accept-new cannot record would be trusted anew, whatever it is, on every connect.
      try {
        Files.createDirectories(file.toAbsolutePath().getParent());
        KnownHostEntry entry = prepareKnownHostEntry(session, remote, key);
        if (entry == null) {
          throw new IOException("no known_hosts line can be made for " + where);
        }
        KnownHostsFile.append(file, entry.getConfigLine());
        return true;
      } catch (Exception e) {
        refusal =
            "host_key: accept-new cannot record the new key of "
                + where
                + " ("
                + describe(key)
                + ") in "
                + file
                + ": "
                + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
                + "; make the file writable, or add the key to it by hand";
        return false;
      }
    }
    refusal =
        "unknown host key for "
            + where
            + " ("
            + describe(key)
            + "); if that fingerprint is the host's, add the key to "
            + file
            + " (e.g. ssh-keyscan"
            + portOption(where)
            + " "
            + hostOf(where)
            + " >> "
            + file
            + ") or set host_key: accept-new for this host";
    return false;
  }

  private boolean changed(
      ClientSession session,
      SocketAddress remote,
      KnownHostEntry entry,
      PublicKey expected,
      PublicKey actual) {
    String where = where(session, remote);
    refusal =
        "the host key of "
            + where
            + " has CHANGED (now "
            + describe(actual)
            + ", "
            + file
            + " has "
            + describe(expected)
            + "); if the host was reinstalled, remove the old key with ssh-keygen -R '"
            + where
            + "' -f "
            + file
            + ", otherwise someone may be intercepting the connection";
    return false;
  }

  @Override
  protected void handleRevokedKey(ClientSession session, SocketAddress remote, PublicKey key) {
    refusal =
        "the host key of "
            + where(session, remote)
            + " ("
            + describe(key)
            + ") is marked"
            + " @revoked in "
            + file;
    super.handleRevokedKey(session, remote, key);
  }

  private static String describe(PublicKey key) {
    return KeyUtils.getKeyType(key) + " " + KeyUtils.getFingerPrint(key);
  }

  /** The host as known_hosts names it: {@code host} for port 22, {@code [host]:port} otherwise. */
  private static String where(ClientSession session, SocketAddress remote) {
    // Behind a ProxyJump the session connects to a local forward; SSHD records the real target.
    SshdSocketAddress target = session.getAttribute(ClientSessionCreator.TARGET_SERVER);
    SocketAddress connect = session.getConnectAddress();
    SocketAddress address = target != null ? target : connect != null ? connect : remote;
    if (address instanceof InetSocketAddress inet) {
      String host = inet.getHostString();
      return inet.getPort() == 22 ? host : "[" + host + "]:" + inet.getPort();
    }
    if (address instanceof SshdSocketAddress sshd) {
      return sshd.getPort() == 22
          ? sshd.getHostName()
          : "[" + sshd.getHostName() + "]:" + sshd.getPort();
    }
    return String.valueOf(address);
  }

  private static String hostOf(String where) {
    return where.startsWith("[") ? where.substring(1, where.indexOf(']')) : where;
  }

  private static String portOption(String where) {
    return where.startsWith("[") ? " -p " + where.substring(where.indexOf("]:") + 2) : "";
  }
}
