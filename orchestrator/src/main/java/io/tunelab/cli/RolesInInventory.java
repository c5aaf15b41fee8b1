package io.tunelab.cli;

import io.tunelab.TunelabException;
import io.tunelab.inventory.Inventory;
import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.MatrixException;
import io.tunelab.yaml.DidYouMean;
import io.tunelab.yaml.Position;
import io.tunelab.yaml.Problems;
import io.tunelab.yaml.YamlNode;
import io.tunelab.yaml.YamlReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code tunelab plan}'s check of a matrix's roles against the inventory, without connecting: a
 * host that is neither {@code local} nor in the inventory, or an inventory that cannot be read, is
 * a problem at the role's {@code FILE:LINE:COL} (exit code 2), as a misspelt knob is.
 */
final class RolesInInventory {
  private RolesInInventory() {}

  /** Checks {@code matrix}'s roles against {@code --hosts FILE}, else its {@code hosts:} entry. */
  static void check(Matrix matrix, HostsOption option) {
    Path file = option.file;
    boolean fromMatrix = file == null && matrix.hostsFile() != null;
    if (fromMatrix) {
      // Relative to the matrix file, as run reads it.
      file = Path.of(matrix.source()).resolveSibling(matrix.hostsFile()).normalize();
    }
    String unreadable = file == null ? null : unreadable(file);
    // A malformed inventory fails here with its own FILE:LINE:COL problems.
    Inventory inventory =
        file == null || unreadable != null ? Inventory.empty() : Inventories.read(file);

    YamlNode.Mapping top = top(matrix);
    Problems problems = new Problems(MatrixException::new);
    if (unreadable != null && fromMatrix) {
      problems.add(
          top.byKey().get("hosts").value().position(),
          "hosts",
          "cannot read the inventory " + file + ": " + unreadable);
    }
    boolean remote = false;
    for (Map.Entry<String, String> role : matrix.roles().entrySet()) {
      String host = role.getValue();
      if (host.equals(Inventory.LOCAL)) {
        continue;
      }
      remote = true;
      String message;
      if (file == null) {
        message =
            "host "
                + host
                + " is not local and no inventory is given (give --hosts FILE, or hosts: in the"
                + " matrix)";
      } else if (unreadable != null) {
        message = "host " + host + " needs the inventory " + file + ", which " + cannot(unreadable);
      } else if (inventory.find(host).isEmpty()) {
        List<String> known = new ArrayList<>(inventory.names());
        known.add(Inventory.LOCAL);
        message =
            "host "
                + host
                + " is not in "
                + file
                + " (hosts: "
                + String.join(", ", known)
                + ")"
                + DidYouMean.hint(host, known);
      } else {
        continue;
      }
      problems.add(rolePosition(top, role.getKey(), matrix), "roles." + role.getKey(), message);
    }
    if (unreadable != null && !fromMatrix && !remote) {
      // As run says it: an inventory given on the command line must be readable.
      throw new TunelabException(
          TunelabException.BAD_INPUT, file + ": cannot read the inventory: " + unreadable);
    }
    problems.throwIfAny();
  }

  private static String unreadable(Path file) {
    if (!Files.exists(file)) {
      return "no such file";
    }
    if (!Files.isRegularFile(file)) {
      return "not a regular file";
    }
    return Files.isReadable(file) ? null : "permission denied";
  }

  private static String cannot(String reason) {
    return reason.equals("no such file") ? "does not exist" : "cannot be read: " + reason;
  }

  /** The matrix's top-level map, read again for the positions the loaded matrix does not keep. */
  private static YamlNode.Mapping top(Matrix matrix) {
    Problems ignored = new Problems(MatrixException::new);
    YamlNode root = new YamlReader(matrix.source(), "in a matrix", ignored).read(matrix.text());
    return (YamlNode.Mapping) root;
  }

  private static Position rolePosition(YamlNode.Mapping top, String role, Matrix matrix) {
    if (top.get("roles") instanceof YamlNode.Mapping roles && roles.get(role) != null) {
      return roles.get(role).position();
    }
    return new Position(matrix.source(), 1, 1);
  }
}
