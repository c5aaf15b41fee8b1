package io.tunelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Cli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tunelab plan} checks the matrix's roles against the inventory without connecting: what
 * {@code run} would refuse at its first step is exit code 2 at the role's FILE:LINE:COL.
 */
class PlanHostsTest {
  private static final String INVENTORY =
      """
      hosts:
        srv1: {address: 192.0.2.10}
        cli2: {address: 192.0.2.20}
      """;

  @TempDir Path dir;

  /** A two-role matrix; {@code hostsLine} is its hosts: entry, or empty. */
  private Path matrix(String hostsLine, String client) throws IOException {
    Path m = dir.resolve("m.yaml");
    Files.writeString(
        m,
        "name: two-hosts\n"
            + hostsLine
            + "roles:\n"
            + "  server: srv1\n"
            + "  client: "
            + client
            + "\n"
            + "matrix:\n"
            + "  client.vm.dirty_ratio: [10, 20]\n"
            + "workload:\n"
            + "  on: server\n"
            + "  command: true\n");
    return m;
  }

  private static Cli.Result plan(String... args) {
    String[] all = new String[args.length + 1];
    all[0] = "plan";
    System.arraycopy(args, 0, all, 1, args.length);
    return Cli.tunelab(all);
  }

  private static void refused(Cli.Result r, String expectedErr) {
    assertEquals(2, r.code(), r.all());
    assertEquals("", r.out());
    assertEquals(expectedErr, r.err());
  }

  @Test
  void aHostTheInventoryLacksIsBadInputAtTheRole() throws IOException {
    Files.writeString(dir.resolve("hosts.yaml"), INVENTORY);
    Path m = matrix("hosts: hosts.yaml\n", "cli1");

    refused(
        plan(m.toString()),
        m
            + ":5:11: roles.client: host cli1 is not in "
            + dir.resolve("hosts.yaml")
            + " (hosts: srv1, cli2, local); did you mean 'cli2'?\n");
  }

  @Test
  void aMissingInventoryIsBadInputAtTheHostsEntryAndEveryRoleThatNeedsIt() throws IOException {
    Path m = matrix("hosts: lab/hosts.yaml\n", "cli2");
    Path inventory = dir.resolve("lab/hosts.yaml");

    refused(
        plan(m.toString()),
        m
            + ":2:8: hosts: cannot read the inventory "
            + inventory
            + ": no such file\n"
            + m
            + ":4:11: roles.server: host srv1 needs the inventory "
            + inventory
            + ", which does not exist\n"
            + m
            + ":5:11: roles.client: host cli2 needs the inventory "
            + inventory
            + ", which does not exist\n");

    Path other = dir.resolve("missing.yaml");
    Cli.Result r = plan("--hosts", other.toString(), m.toString());
    assertEquals(2, r.code(), r.all());
    assertTrue(
        r.err()
            .contains(
                ":4:11: roles.server: host srv1 needs the inventory "
                    + other
                    + ", which does not exist"),
        r.err());
  }

  @Test
  void withoutAnInventoryOnlyLocalRolesPass() throws IOException {
    Path m = matrix("", "local");

    refused(
        plan(m.toString()),
        m
            + ":3:11: roles.server: host srv1 is not local and no inventory is given (give"
            + " --hosts FILE, or hosts: in the matrix)\n");
  }

  @Test
  void hostsOnTheCommandLineWinOverTheMatrixEntry() throws IOException {
    Path inventory = dir.resolve("other.yaml");
    Files.writeString(inventory, INVENTORY);
    Path m = matrix("hosts: nowhere.yaml\n", "cli2");

    Cli.Result r = plan("--summary", "--hosts", inventory.toString(), m.toString());

    assertEquals(0, r.code(), r.all());
    assertTrue(r.out().startsWith("two-hosts: 2 cells x "), r.out());
  }

  @Test
  void localRolesNeedNoInventoryButAGivenOneMustBeReadable() throws IOException {
    Path m = dir.resolve("local.yaml");
    Files.writeString(
        m,
        "name: only-local\nmatrix:\n  local.vm.dirty_ratio: [10, 20]\nworkload:\n  command: true\n");
    assertEquals(0, plan("--summary", m.toString()).code());

    Path missing = dir.resolve("missing.yaml");
    refused(
        plan("--hosts", missing.toString(), m.toString()),
        "tunelab: " + missing + ": cannot read the inventory: no such file\n");
  }

  @Test
  void aMalformedInventoryIsReportedWithItsOwnPositions() throws IOException {
    Path inventory = dir.resolve("hosts.yaml");
    Files.writeString(inventory, "hosts:\n  srv1:\n    adress: 192.0.2.10\n");
    Path m = matrix("hosts: hosts.yaml\n", "local");

    Cli.Result r = plan(m.toString());

    assertEquals(2, r.code(), r.all());
    assertTrue(
        r.err().contains(":3:5: hosts.srv1.adress: unknown key; did you mean 'address'?"), r.err());
  }
}
