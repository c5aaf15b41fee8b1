package io.tunelab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.TunelabException;
import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.MatrixLoader;
import io.tunelab.plan.Cell;
import io.tunelab.plan.ExperimentPlan;
import io.tunelab.remote.LocalTransport;
import io.tunelab.remote.Transport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Preflight with the real agent on this machine, each "host" an agent with a state of its own (as
 * the lab's two sshd on one kernel): two names for one file, and one kernel's file named on two
 * hosts, are refused before anything is written. It only reads.
 */
class PreflightAliasTest {

  /** This machine under another name, its agent's state and cached copy under {@code dir}. */
  private static HostConnector sameKernel(Path dir) {
    return name ->
        new Transport() {
          private final LocalTransport local = new LocalTransport();
          private final String env =
              "export TUNELAB_STATE='"
                  + dir.resolve(name + "-state")
                  + "' XDG_CACHE_HOME='"
                  + dir.resolve("cache")
                  + "'; ";

          @Override
          public String host() {
            return name;
          }

          @Override
          public ExecResult exec(String command, byte[] stdin, Duration timeout)
              throws IOException {
            return local.exec(env + command, stdin, timeout);
          }

          @Override
          public Channel open(String command) throws IOException {
            return local.open(env + command);
          }

          @Override
          public void close() {
            local.close();
          }
        };
  }

  private static TunelabException refused(Path dir, String roles, String knobs) {
    Matrix matrix =
        MatrixLoader.load(
            "m.yaml",
            "name: aliases\nroles:\n"
                + roles
                + "matrix:\n"
                + knobs
                + "workload:\n  on: "
                + roles.substring(2, roles.indexOf(':'))
                + "\n  command: 'true'\n");
    List<Cell> cells = ExperimentPlan.of(matrix).cells();
    try (Hosts hosts = Hosts.connect(matrix.roles(), sameKernel(dir))) {
      ExperimentKnobs knobs1 = new ExperimentKnobs(matrix, cells, Map.of());
      return assertThrows(
          TunelabException.class, () -> Preflight.check(hosts, knobs1, cells, Map.of()));
    }
  }

  @Test
  void oneKernelsFileNamedOnTwoHostsIsRefused(@TempDir Path dir) {
    TunelabException e =
        refused(
            dir,
            "  server: a\n  client: b\n",
            "  server.vm.swappiness: [default]\n  client.vm.swappiness: [default]\n");

    assertEquals(TunelabException.HOST_REFUSED, e.exitCode());
    assertTrue(
        e.getMessage()
            .contains(
                "host b: hosts a and b are one kernel (boot id "
                    + bootId()
                    + "): a's vm.swappiness and b's vm.swappiness are one file,"
                    + " /proc/sys/vm/swappiness: set it on one of them only"),
        e.getMessage());
  }

  @Test
  void aSysfsPathToABdisCatalogueFileIsRefused(@TempDir Path dir) throws IOException {
    Path bdis = Path.of("/sys/class/bdi");
    Assumptions.assumeTrue(Files.isDirectory(bdis), "no /sys/class/bdi");
    String bdi;
    try (var list = Files.list(bdis)) {
      bdi =
          list.map(p -> p.getFileName().toString())
              .filter(n -> n.matches("\\d+:\\d+"))
              .findFirst()
              .orElse(null);
    }
    Assumptions.assumeTrue(bdi != null, "no bdi");
    String file = bdis.resolve(bdi).toRealPath().resolve("read_ahead_kb").toString();

    TunelabException e =
        refused(
            dir,
            "  local: a\n",
            "  local.bdi."
                + bdi
                + ".read_ahead_kb: [default]\n  local.sysfs:"
                + file
                + ": [default]\n");

    assertEquals(TunelabException.HOST_REFUSED, e.exitCode());
    assertTrue(
        e.getMessage()
            .contains(
                "host a: bdi."
                    + bdi
                    + ".read_ahead_kb and sysfs:"
                    + file
                    + " are one file, "
                    + file
                    + ": name it once"),
        e.getMessage());
  }

  private static String bootId() {
    try {
      return Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).strip();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
