package io.tunelab.cli;

import io.tunelab.inventory.Inventory;
import io.tunelab.matrix.Matrix;
import io.tunelab.run.SshConnector;
import io.tunelab.store.StoredFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Finds and reads the inventory of a command: {@code --hosts FILE}, else the matrix's {@code
 * hosts:} entry (relative to the matrix file), else none (only {@code local}).
 */
final class Inventories {
  private Inventories() {}

  static Inventory forMatrix(HostsOption option, Matrix matrix) {
    if (option.file != null) {
      return read(option.file);
    }
    if (matrix != null && matrix.hostsFile() != null) {
      Path dir = Path.of(matrix.source()).toAbsolutePath().getParent();
      return read(dir.resolve(matrix.hostsFile()).normalize());
    }
    return Inventory.empty();
  }

  /**
   * As {@link #forMatrix}, for an experiment read back from a database: the inventory its matrix
   * names is the text stored with it ({@code files}), when there is one.
   */
  static Inventory forStored(HostsOption option, Matrix matrix, List<StoredFile> files) {
    if (option.file == null && matrix.hostsFile() != null) {
      for (StoredFile f : files) {
        if (f.kind().equals(StoredFile.INVENTORY) && f.path().equals(matrix.hostsFile())) {
          Path dir = Path.of(matrix.source()).toAbsolutePath().getParent();
          return Inventory.load(
              dir.resolve(f.path()).normalize() + " (as stored with the experiment)",
              f.content(),
              dir.toString());
        }
      }
    }
    return forMatrix(option, matrix);
  }

  /**
   * The inventory {@code matrix} names with {@code hosts:}, as a file to store with it; null when
   * it names none. Refused with exit code 2 when it cannot be read or is not an inventory.
   */
  static StoredFile named(Matrix matrix) {
    if (matrix.hostsFile() == null) {
      return null;
    }
    Path file = Path.of(matrix.source()).toAbsolutePath().getParent().resolve(matrix.hostsFile());
    String text = InputFile.read(file.normalize(), "the inventory");
    Inventory.load(file.toString(), text, file.getParent().toString());
    return new StoredFile(matrix.hostsFile(), StoredFile.INVENTORY, text);
  }

  /**
   * What identifies this inventory's hosts across testbeds ({@code testbed_hosts.address}): each
   * host's {@code ADDRESS:PORT}, and this controller as {@code local}.
   */
  static Set<String> addresses(Inventory inventory) {
    Set<String> all = new TreeSet<>();
    all.add(SshConnector.localAddress());
    inventory.hosts().forEach(h -> all.add(h.endpoint()));
    return all;
  }

  static Inventory read(Path file) {
    Path abs = file.toAbsolutePath();
    return Inventory.load(
        file.toString(), InputFile.read(file, "the inventory"), abs.getParent().toString());
  }

  /** Every role's host must be {@code local} or in the inventory: checked before connecting. */
  static void requireRoles(Matrix matrix, Inventory inventory) {
    List<String> missing = new ArrayList<>();
    for (Map.Entry<String, String> role : matrix.roles().entrySet()) {
      String host = role.getValue();
      if (!host.equals(Inventory.LOCAL) && inventory.find(host).isEmpty()) {
        missing.add(
            "role "
                + role.getKey()
                + ": host "
                + host
                + " is not in "
                + (inventory.source() == null
                    ? "any inventory (give --hosts FILE or hosts: in the matrix)"
                    : inventory.source() + " (add it under hosts:)"));
      }
    }
    if (!missing.isEmpty()) {
      throw new UnfitInventory(String.join("\n  ", missing));
    }
  }
}
