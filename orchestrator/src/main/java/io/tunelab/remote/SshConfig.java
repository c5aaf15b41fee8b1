package io.tunelab.remote;

import io.tunelab.TunelabException;
import io.tunelab.inventory.HostSpec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import org.apache.sshd.client.config.hosts.HostConfigEntry;
import org.apache.sshd.client.config.hosts.HostConfigEntryResolver;

/**
 * The Host sections of an OpenSSH client config ({@code ~/.ssh/config}): HostName, Port, User,
 * IdentityFile, IdentitiesOnly and ProxyJump. Match sections are skipped (SSHD cannot read them)
 * and Include is not followed.
 */
final class SshConfig {
  private final HostConfigEntryResolver resolver;
  private final String localUser;

  private SshConfig(HostConfigEntryResolver entries, String localUser) {
    this.localUser = localUser;
    // SSHD leaves user and port unset for a host no section matches, and a ProxyJump host
    // without a user then never logs in; OpenSSH's defaults fill them in.
    this.resolver =
        (host, port, local, user, jump, context) -> {
          HostConfigEntry entry =
              entries.resolveEffectiveHost(host, port, local, user, jump, context);
          if (entry == null) {
            entry = new HostConfigEntry(host, host, port, user);
          }
          complete(entry, host);
          return entry;
        };
  }

  /**
   * Reads {@code file}; a missing file (or null) is an empty config.
   *
   * @param localUser the user for hosts that neither the inventory nor the config gives one
   */
  static SshConfig read(Path file, String localUser) {
    if (file == null || !Files.isRegularFile(file)) {
      return new SshConfig(HostConfigEntryResolver.EMPTY, localUser);
    }
    try {
      String text = withoutMatchSections(Files.readString(file, StandardCharsets.UTF_8));
      List<HostConfigEntry> entries =
          HostConfigEntry.readHostConfigEntries(new BufferedReader(new StringReader(text)));
      return new SshConfig(HostConfigEntry.toHostConfigEntryResolver(entries), localUser);
    } catch (IOException | RuntimeException e) {
      throw new TunelabException(
          TunelabException.HOST_REFUSED,
          "cannot read the SSH config " + file + ": " + e.getMessage());
    }
  }

  /** What SSHD consults for ProxyJump hosts. */
  HostConfigEntryResolver resolver() {
    return resolver;
  }

  /**
   * Where and as whom to log in for {@code spec}: the inventory's port and user win over the
   * config's, as {@code ssh -p -l} do; the address may be a config alias.
   */
  HostConfigEntry resolve(HostSpec spec) {
    int port = spec.port() == null ? 0 : spec.port();
    try {
      return resolver.resolveEffectiveHost(spec.address(), port, null, spec.user(), null, null);
    } catch (IOException | RuntimeException e) {
      throw new HostRefusedException(
          spec.name(), "cannot apply the SSH config to " + spec.address() + ": " + e.getMessage());
    }
  }

  private void complete(HostConfigEntry entry, String host) {
    if (entry.getHostName() == null || entry.getHostName().isEmpty()) {
      entry.setHostName(host);
    }
    if (entry.getUsername() == null || entry.getUsername().isEmpty()) {
      entry.setUsername(localUser);
    }
    if (entry.getPort() < 1) {
      entry.setPort(22);
    }
  }

  /**
   * The hosts a connection to {@code target} passes through: its ProxyJump hosts, and theirs,
   * resolved like the target (at most ten, as SSHD allows).
   */
  List<HostConfigEntry> jumps(HostConfigEntry target) {
    List<HostConfigEntry> found = new ArrayList<>();
    Deque<String> pending = new ArrayDeque<>(split(target.getProxyJump()));
    while (!pending.isEmpty() && found.size() < 10) {
      URI uri = URI.create("ssh://" + pending.removeFirst());
      if (uri.getHost() == null) {
        continue;
      }
      HostConfigEntry jump;
      try {
        jump =
            resolver.resolveEffectiveHost(
                uri.getHost(), Math.max(uri.getPort(), 0), null, uri.getUserInfo(), null, null);
      } catch (IOException | RuntimeException e) {
        continue; // SSHD fails the same way when it connects, and that failure is reported
      }
      found.add(jump);
      pending.addAll(split(jump.getProxyJump()));
    }
    return found;
  }

  private static List<String> split(String proxyJump) {
    List<String> hops = new ArrayList<>();
    if (proxyJump != null && !proxyJump.isBlank() && !proxyJump.strip().equals("none")) {
      for (String hop : proxyJump.split(",")) {
        if (!hop.isBlank()) {
          hops.add(hop.strip());
        }
      }
    }
    return hops;
  }

  /** Drops every Match section: from a Match line up to the next Host line. */
  static String withoutMatchSections(String text) {
    StringBuilder kept = new StringBuilder();
    boolean skipping = false;
    for (String line : text.split("\n", -1)) {
      String word = firstWord(line);
      if (word.equals("match")) {
        skipping = true;
      } else if (word.equals("host")) {
        skipping = false;
      }
      kept.append(skipping ? "" : line).append('\n');
    }
    return kept.toString();
  }

  private static String firstWord(String line) {
    String trimmed = line.strip();
    int end = 0;
    while (end < trimmed.length()
        && !Character.isWhitespace(trimmed.charAt(end))
        && trimmed.charAt(end) != '=') {
      end++;
    }
    return trimmed.substring(0, end).toLowerCase(Locale.ROOT);
  }
}
