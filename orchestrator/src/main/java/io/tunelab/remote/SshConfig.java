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
import java.nio.file.PathMatcher;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.apache.sshd.client.config.hosts.HostConfigEntry;
import org.apache.sshd.client.config.hosts.HostConfigEntryResolver;

/**
 * The Host sections of an OpenSSH client config ({@code ~/.ssh/config}): HostName, Port, User,
 * IdentityFile, IdentitiesOnly and ProxyJump. Include is followed as OpenSSH does (globs; relative
 * paths in {@code ~/.ssh}); Match sections are skipped (SSHD cannot read them).
 */
final class SshConfig {
  /** OpenSSH's limit on nested Includes. */
  private static final int MAX_INCLUDE_DEPTH = 16;

  private final HostConfigEntryResolver resolver;
  private final String localUser;
  private final List<Path> files;

  private SshConfig(HostConfigEntryResolver entries, String localUser, List<Path> files) {
    this.localUser = localUser;
    this.files = List.copyOf(files);
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
      return new SshConfig(HostConfigEntryResolver.EMPTY, localUser, List.of());
    }
    List<Path> read = new ArrayList<>();
    try {
      String text = withoutMatchSections(withIncludes(file, file.getParent(), read, 0));
      List<HostConfigEntry> entries =
          HostConfigEntry.readHostConfigEntries(new BufferedReader(new StringReader(text)));
      return new SshConfig(HostConfigEntry.toHostConfigEntryResolver(entries), localUser, read);
    } catch (IOException | RuntimeException e) {
      throw new TunelabException(
          TunelabException.HOST_REFUSED,
          "cannot read the SSH config " + file + ": " + e.getMessage());
    }
  }

  /** The config files read, the user's first and then each Include in the order followed. */
  List<Path> files() {
    return files;
  }

  /**
   * The text of {@code file} with each Include line replaced by the files it names, in lexical
   * order per pattern as OpenSSH reads them. A pattern that matches nothing is no error.
   *
   * @param sshDir where relative Include paths are, as OpenSSH's {@code ~/.ssh} for a user config
   */
  private static String withIncludes(Path file, Path sshDir, List<Path> read, int depth)
      throws IOException {
    if (depth > MAX_INCLUDE_DEPTH) {
      throw new IOException("Include nested deeper than " + MAX_INCLUDE_DEPTH + " at " + file);
    }
    read.add(file);
    StringBuilder out = new StringBuilder();
    for (String line : Files.readString(file, StandardCharsets.UTF_8).split("\n", -1)) {
      if (!firstWord(line).equals("include")) {
        out.append(line).append('\n');
        continue;
      }
      String rest = line.strip().substring("include".length()).replaceFirst("^[\\s=]+", "");
      for (String pattern : rest.split("\\s+")) {
        if (pattern.isEmpty()) {
          continue;
        }
        for (Path included : matches(pattern, sshDir)) {
          out.append(withIncludes(included, sshDir, read, depth + 1));
        }
      }
    }
    return out.toString();
  }

  private static List<Path> matches(String pattern, Path sshDir) throws IOException {
    String expanded =
        pattern.startsWith("~/") ? System.getProperty("user.home") + pattern.substring(1) : pattern;
    Path path = Path.of(expanded);
    Path full = path.isAbsolute() ? path : sshDir.resolve(path);
    Path dir = full.getParent();
    String name = full.getFileName().toString();
    List<Path> found = new ArrayList<>();
    if (!name.contains("*") && !name.contains("?") && !name.contains("[")) {
      if (Files.isRegularFile(full)) {
        found.add(full);
      }
      return found;
    }
    if (dir == null || !Files.isDirectory(dir)) {
      return found;
    }
    PathMatcher glob = dir.getFileSystem().getPathMatcher("glob:" + name);
    try (Stream<Path> entries = Files.list(dir)) {
      entries
          .filter(p -> glob.matches(p.getFileName()) && Files.isRegularFile(p))
          .sorted()
          .forEach(found::add);
    }
    return found;
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
