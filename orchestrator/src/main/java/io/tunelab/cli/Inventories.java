package io.tunelab.cli;

import io.tunelab.TunelabException;
import io.tunelab.inventory.Inventory;
import io.tunelab.matrix.Matrix;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
      throw new TunelabException(TunelabException.HOST_REFUSED, String.join("\n  ", missing));
    }
  }
}
