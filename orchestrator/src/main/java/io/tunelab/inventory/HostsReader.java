package io.tunelab.inventory;

import io.tunelab.matrix.Durations;
import io.tunelab.yaml.DidYouMean;
import io.tunelab.yaml.Position;
import io.tunelab.yaml.Problems;
import io.tunelab.yaml.YamlNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** Turns the YAML tree of an inventory into {@link HostSpec}s, collecting every problem. */
final class HostsReader {
  private static final List<String> TOP_KEYS = List.of("hosts");
  private static final List<String> HOST_KEYS =
      List.of(
          "address",
          "port",
          "user",
          "identity",
          "known_hosts",
          "host_key",
          "become",
          "passphrase_env",
          "boot",
          "boot_timeout",
          "power_cycle");
  private static final List<String> BOOT_KEYS = List.of("command", "timeout");
  private static final Pattern HOST_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*");
  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern PORT = Pattern.compile("[0-9]{1,5}");

  private final String file;
  private final String baseDir;
  private final Problems problems;

  HostsReader(String file, String baseDir, Problems problems) {
    this.file = file;
    this.baseDir = baseDir == null ? "" : baseDir;
    this.problems = problems;
  }

  Map<String, HostSpec> read(YamlNode root) {
    Map<String, HostSpec> hosts = new LinkedHashMap<>();
    if (root == null || (root instanceof YamlNode.Scalar s && s.isNull())) {
      problem(
          new Position(file, 1, 1),
          "(yaml)",
          "the inventory is empty; write hosts: with one entry per host");
      return hosts;
    }
    if (!(root instanceof YamlNode.Mapping top)) {
      problem(root.position(), "(yaml)", "expected a map with the key hosts, got " + root.kind());
      return hosts;
    }
    YamlNode.Entry hostsEntry = null;
    for (YamlNode.Entry e : top.entries()) {
      if (e.key().equals("hosts")) {
        hostsEntry = e;
      } else {
        problem(e.keyPosition(), e.key(), "unknown key" + DidYouMean.hint(e.key(), TOP_KEYS));
      }
    }
    if (hostsEntry == null) {
      problem(top.position(), "hosts", "missing; list the hosts under hosts:");
      return hosts;
    }
    if (!(hostsEntry.value() instanceof YamlNode.Mapping byName)) {
      problem(
          hostsEntry.value().position(),
          "hosts",
          "expected a map from host name to its settings, got " + hostsEntry.value().kind());
      return hosts;
    }
    if (byName.entries().isEmpty()) {
      problem(byName.position(), "hosts", "no hosts; add at least one");
    }
    for (YamlNode.Entry e : byName.entries()) {
      HostSpec spec = host(e);
      if (spec != null) {
        hosts.put(spec.name(), spec);
      }
    }
    return Collections.unmodifiableMap(hosts);
  }

  private HostSpec host(YamlNode.Entry entry) {
    String name = entry.key();
    String key = "hosts." + name;
    if (name.equals(Inventory.LOCAL)) {
      problem(
          entry.keyPosition(),
          key,
          "the name 'local' is reserved for the built-in host; choose another name");
      return null;
    }
    if (!HOST_NAME.matcher(name).matches()) {
      problem(
          entry.keyPosition(),
          key,
          "a host name uses letters, digits, '_', '.' and '-' (and starts with a letter, digit"
              + " or '_')");
      return null;
    }
    Map<String, YamlNode> fields = new LinkedHashMap<>();
    YamlNode value = entry.value();
    if (value instanceof YamlNode.Mapping m) {
      for (YamlNode.Entry f : m.entries()) {
        if (HOST_KEYS.contains(f.key())) {
          fields.put(f.key(), f.value());
        } else if (f.key().equals("passphrase") || f.key().equals("password")) {
          problem(
              f.keyPosition(),
              key + "." + f.key(),
              "unknown key; secrets stay out of the inventory: name the environment variable"
                  + " that holds the key's passphrase with passphrase_env");
        } else {
          problem(
              f.keyPosition(),
              key + "." + f.key(),
              "unknown key" + DidYouMean.hint(f.key(), HOST_KEYS));
        }
      }
    } else if (!(value instanceof YamlNode.Scalar s && s.isNull())) {
      problem(
          value.position(),
          key,
          "expected a map of settings (address, port, user, ...), got "
              + value.kind()
              + "; e.g. "
              + name
              + ": {address: "
              + (value instanceof YamlNode.Scalar s ? s.text() : "192.0.2.10")
              + "}");
      return null;
    }
    Field f = new Field(key, fields);
    String address = f.text("address");
    if (address != null && address.contains("@")) {
      f.report("address", "write the user under user:, not in the address");
    } else if (address != null && address.chars().anyMatch(Character::isWhitespace)) {
      f.report("address", "an address has no spaces");
    }
    String user = f.text("user");
    if (user != null && (user.contains("@") || user.chars().anyMatch(Character::isWhitespace))) {
      f.report("user", "a user name has no spaces and no '@'");
    }
    return new HostSpec(
        name,
        address == null ? name : address,
        f.port(),
        user,
        path(f.text("identity")),
        path(f.text("known_hosts")),
        f.choice("host_key", HostKeyPolicy.values(), HostKeyPolicy.STRICT),
        f.choice("become", Become.values(), Become.NONE),
        f.envName(),
        f.boot(),
        entry.keyPosition());
  }

  /** Resolves a relative path against the inventory's directory; keeps absolute and ~ paths. */
  private String path(String path) {
    if (path == null || path.startsWith("/") || path.startsWith("~") || baseDir.isEmpty()) {
      return path;
    }
    return normalize(baseDir + "/" + path);
  }

  /** Drops empty and {@code .} segments and folds {@code dir/..}, as the file system would. */
  static String normalize(String path) {
    java.util.Deque<String> kept = new java.util.ArrayDeque<>();
    for (String segment : path.split("/")) {
      if (segment.isEmpty() || segment.equals(".")) {
        continue;
      }
      if (segment.equals("..") && !kept.isEmpty() && !kept.peekLast().equals("..")) {
        kept.removeLast();
      } else if (!(segment.equals("..") && kept.isEmpty() && path.startsWith("/"))) {
        kept.addLast(segment);
      }
    }
    String joined = String.join("/", kept);
    return path.startsWith("/") ? "/" + joined : joined.isEmpty() ? "." : joined;
  }

  private void problem(Position at, String key, String message) {
    problems.add(at, key, message);
  }

  /** The settings of one host, each read once with its own checks. */
  private final class Field {
    private final String hostKey;
    private final Map<String, YamlNode> fields;

    Field(String hostKey, Map<String, YamlNode> fields) {
      this.hostKey = hostKey;
      this.fields = fields;
    }

    /** The value as text, or null when unset; reports lists, maps and empty text. */
    String text(String name) {
      YamlNode node = fields.get(name);
      if (node == null || (node instanceof YamlNode.Scalar s && s.isNull())) {
        return null;
      }
      if (!(node instanceof YamlNode.Scalar s)) {
        problem(
            node.position(), hostKey + "." + name, "expected a single value, got " + node.kind());
        return null;
      }
      if (s.text().isBlank()) {
        problem(node.position(), hostKey + "." + name, "empty; give a value or leave the key out");
        return null;
      }
      return s.text().trim();
    }

    Integer port() {
      String text = text("port");
      if (text == null) {
        return null;
      }
      int port = PORT.matcher(text).matches() ? Integer.parseInt(text) : -1;
      if (port < 1 || port > 65535) {
        problem(
            fields.get("port").position(), hostKey + ".port", "expected a TCP port, 1 to 65535");
        return null;
      }
      return port;
    }

    <E extends Enum<E> & Keyword> E choice(String name, E[] values, E fallback) {
      String text = text(name);
      if (text == null) {
        return fallback;
      }
      List<String> words = new ArrayList<>();
      for (E value : values) {
        String word = value.word();
        if (word.equals(text)) {
          return value;
        }
        words.add(word);
      }
      String hint =
          name.equals("become") && text.equals("root")
              ? "; to log in as root, write user: root and become: none"
              : DidYouMean.hint(text, words);
      problem(
          fields.get(name).position(),
          hostKey + "." + name,
          "expected one of " + String.join(", ", words) + ", got '" + text + "'" + hint);
      return fallback;
    }

    /**
     * {@code boot} ({@code kexec}, {@code reboot} or {@code {command: …, timeout: …}}), {@code
     * boot_timeout} and {@code power_cycle}.
     */
    BootSpec boot() {
      BootSpec.Method method = BootSpec.Method.KEXEC;
      String command = null;
      Duration timeout = duration("boot_timeout", fields.get("boot_timeout"));
      YamlNode node = fields.get("boot");
      if (node instanceof YamlNode.Mapping m) {
        method = BootSpec.Method.COMMAND;
        for (YamlNode.Entry e : m.entries()) {
          String key = hostKey + ".boot." + e.key();
          if (!BOOT_KEYS.contains(e.key())) {
            problem(e.keyPosition(), key, "unknown key" + DidYouMean.hint(e.key(), BOOT_KEYS));
          } else if (e.key().equals("command")) {
            command = e.value() instanceof YamlNode.Scalar s ? s.text().trim() : null;
            if (command == null || command.isEmpty()) {
              problem(e.value().position(), key, "give the shell command that boots the host");
            }
          } else {
            Duration own = duration("boot.timeout", e.value());
            timeout = own != null ? own : timeout;
          }
        }
        if (m.get("command") == null) {
          problem(
              m.position(),
              hostKey + ".boot",
              "a boot of its own needs command: (run on the host, the release in"
                  + " TUNELAB_KERNEL); or write boot: kexec or boot: reboot");
        }
      } else if (node != null && !(node instanceof YamlNode.Scalar s && s.isNull())) {
        method =
            choice(
                "boot",
                new BootSpec.Method[] {BootSpec.Method.KEXEC, BootSpec.Method.REBOOT},
                BootSpec.Method.KEXEC);
      }
      String powerCycle = text("power_cycle");
      return new BootSpec(
          method, command, timeout == null ? BootSpec.DEFAULT_TIMEOUT : timeout, powerCycle);
    }

    private Duration duration(String name, YamlNode node) {
      if (node == null || node instanceof YamlNode.Scalar s && s.isNull()) {
        return null;
      }
      String key = hostKey + "." + name;
      if (!(node instanceof YamlNode.Scalar s)) {
        problem(node.position(), key, "expected a duration (10m, 300s), got " + node.kind());
        return null;
      }
      try {
        Duration d = Durations.parse(s.text().trim());
        if (d.isZero()) {
          problem(node.position(), key, "give a duration above zero");
          return null;
        }
        return d;
      } catch (IllegalArgumentException e) {
        problem(node.position(), key, e.getMessage());
        return null;
      }
    }

    /** The variable's name; the value itself is never echoed, in case it is the secret. */
    String envName() {
      String text = text("passphrase_env");
      if (text != null && !ENV_NAME.matcher(text).matches()) {
        problem(
            fields.get("passphrase_env").position(),
            hostKey + ".passphrase_env",
            "give the name of an environment variable (letters, digits and '_'), not the"
                + " passphrase itself");
        return null;
      }
      return text;
    }

    void report(String name, String message) {
      problem(fields.get(name).position(), hostKey + "." + name, message);
    }
  }
}
