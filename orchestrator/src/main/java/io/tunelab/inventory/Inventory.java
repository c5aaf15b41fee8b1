package io.tunelab.inventory;

import io.tunelab.TunelabException;
import io.tunelab.yaml.DidYouMean;
import io.tunelab.yaml.Problems;
import io.tunelab.yaml.YamlNode;
import io.tunelab.yaml.YamlReader;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The hosts an experiment may use, read from an inventory file ({@code hosts.yaml}). The name
 * {@code local} is reserved for the built-in host and never appears here.
 */
public final class Inventory {
  /** The built-in host, always available without an inventory. */
  public static final String LOCAL = "local";

  private final String source;
  private final Map<String, HostSpec> hosts;

  private Inventory(String source, Map<String, HostSpec> hosts) {
    this.source = source;
    this.hosts = hosts;
  }

  /**
   * Reads an inventory. Nothing is touched: files named in it are neither read nor checked here.
   *
   * @param fileName the name used in messages, e.g. {@code hosts.yaml}
   * @param text the file's content
   * @param baseDir the file's directory, against which relative paths are resolved (null or empty
   *     leaves them relative)
   * @throws InventoryException (exit code 2) listing every problem with its line and column
   */
  public static Inventory load(String fileName, String text, String baseDir) {
    Problems problems = new Problems(InventoryException::new);
    YamlNode root = new YamlReader(fileName, "here", problems).read(text);
    Map<String, HostSpec> hosts = new HostsReader(fileName, baseDir, problems).read(root);
    problems.throwIfAny();
    return new Inventory(fileName, hosts);
  }

  /** No hosts but {@code local}: what a run without {@code --hosts} sees. */
  public static Inventory empty() {
    return new Inventory(null, Map.of());
  }

  /** The file name given to {@link #load}, or null for {@link #empty}. */
  public String source() {
    return source;
  }

  /** The host names in the order written. */
  public List<String> names() {
    return List.copyOf(hosts.keySet());
  }

  /** The hosts in the order written. */
  public Collection<HostSpec> hosts() {
    return hosts.values();
  }

  /** The host called {@code name}; never {@code local}. */
  public Optional<HostSpec> find(String name) {
    return Optional.ofNullable(hosts.get(name));
  }

  /**
   * The host called {@code name}.
   *
   * @throws TunelabException (exit code 2) naming the inventory and the closest known name
   */
  public HostSpec require(String name) {
    HostSpec spec = hosts.get(name);
    if (spec != null) {
      return spec;
    }
    List<String> known = new ArrayList<>(hosts.keySet());
    known.add(LOCAL);
    String where =
        source == null
            ? "no inventory was given (--hosts FILE, or hosts: in the matrix)"
            : "it is not in " + source + " (hosts: " + String.join(", ", known) + ")";
    throw new TunelabException(
        TunelabException.BAD_INPUT,
        "host " + name + ": unknown host; " + where + DidYouMean.hint(name, known));
  }
}
