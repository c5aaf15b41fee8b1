package io.tunelab.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Matrices and inventories for the kernel axis on the VM lab's client. */
final class VmKernels {
  private VmKernels() {}

  /** The release the client runs now. */
  static String running() throws Exception {
    return VmLab.ssh("client", "uname -r");
  }

  /** The other installed release: {@code KERNELS} names both, default first. */
  static String other(Map<String, String> env, String running) {
    for (String k : env.get("KERNELS").split("\\s+")) {
      if (!k.equals(running)) {
        return k;
      }
    }
    throw new IllegalStateException("lab/vm-state/env names one kernel: " + env.get("KERNELS"));
  }

  /**
   * A matrix of the client's kernel × two cells; every trial records the release it ran on, so a
   * test can compare it with the cell's.
   */
  static Path matrix(Path dir, String kernels, int repeat) throws Exception {
    return matrix(dir, kernels, repeat, "");
  }

  /** {@link #matrix(Path, String, int)} with more top-level lines, such as {@code boots: 2}. */
  static Path matrix(Path dir, String kernels, int repeat, String more) throws Exception {
    Path m = dir.resolve("kernels.yaml");
    Files.writeString(
        m,
        """
        name: vm-kernels
        roles: {client: client, server: server}
        matrix:
          client.kernel: [KERNELS]
          size: [4k, 8k]
        repeat: REPEAT
        MORE
        workload:
          on: client
          command: head -c ${size} /dev/zero | wc -c; uname -r
        """
            .replace("KERNELS", kernels)
            .replace("REPEAT", Integer.toString(repeat))
            .replace("MORE\n", more));
    return m;
  }

  /** The lab's inventory with another {@code boot_timeout} for every host. */
  static Path inventory(Path dir, String bootTimeout) throws Exception {
    String text = Files.readString(VmLab.inventory());
    Path copy = dir.resolve("vm-hosts.yaml");
    String base = VmLab.inventory().getParent().toString();
    Files.writeString(
        copy,
        text.replaceAll("boot_timeout: \\S+", "boot_timeout: " + bootTimeout)
            .replace("identity: vm-state/", "identity: " + base + "/vm-state/")
            .replace("known_hosts: vm-state/", "known_hosts: " + base + "/vm-state/"));
    return copy;
  }
}
