package io.tunelab.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.TunelabException;
import java.util.List;
import org.junit.jupiter.api.Test;

class InventoryTest {

  private static Inventory load(String yaml, String baseDir) {
    return Inventory.load("hosts.yaml", yaml, baseDir);
  }

  @Test
  void relativePathsResolveAgainstTheInventorysDirectory() {
    String yaml =
        "hosts:\n"
            + "  a: {identity: keys/id, known_hosts: ./kh}\n"
            + "  b: {identity: ../shared/id, known_hosts: /etc/ssh/kh}\n"
            + "  c: {identity: ~/.ssh/id_lab}\n";
    Inventory inv = load(yaml, "/srv/lab/");
    assertEquals("/srv/lab/keys/id", inv.require("a").identity());
    assertEquals("/srv/lab/kh", inv.require("a").knownHosts());
    assertEquals("/srv/shared/id", inv.require("b").identity());
    assertEquals("/etc/ssh/kh", inv.require("b").knownHosts());
    assertEquals("~/.ssh/id_lab", inv.require("c").identity());
    assertEquals("lab/keys/id", load(yaml, "lab").require("a").identity());
    assertEquals("keys/id", load(yaml, "").require("a").identity());
    assertEquals("keys/id", load(yaml, null).require("a").identity());
  }

  @Test
  void unsetValuesAreNullAndPoliciesDefaultToTheSafeChoice() {
    HostSpec h = load("hosts:\n  lab1:\n", "/x").require("lab1");
    assertEquals("lab1", h.address());
    assertEquals(null, h.port());
    assertEquals(null, h.user());
    assertEquals(HostKeyPolicy.STRICT, h.hostKey());
    assertEquals(Become.NONE, h.become());
    assertEquals("TUNELAB_SSH_PASSPHRASE", h.passphraseVariable());
    assertEquals("hosts.yaml", h.source());
  }

  @Test
  void hostsKeepTheOrderWritten() {
    Inventory inv = load("hosts:\n  zeta: {}\n  alpha: {}\n  mid: {}\n", "/x");
    assertEquals(List.of("zeta", "alpha", "mid"), inv.names());
    assertTrue(inv.find("alpha").isPresent());
    assertFalse(inv.find("local").isPresent());
  }

  @Test
  void anUnknownHostIsABadInputWithASuggestion() {
    Inventory inv = load("hosts:\n  server1: {}\n  client1: {}\n", "/x");
    TunelabException e = assertThrows(TunelabException.class, () -> inv.require("sever1"));
    assertEquals(2, e.exitCode());
    assertEquals(
        "host sever1: unknown host; it is not in hosts.yaml (hosts: server1, client1, local);"
            + " did you mean 'server1'?",
        e.getMessage());
  }

  @Test
  void aPassphraseWrittenWhereAVariableNameBelongsIsNeverEchoed() {
    InventoryException e =
        assertThrows(
            InventoryException.class,
            () -> load("hosts:\n  a: {passphrase_env: \"s3cret pass\"}\n", "/x"));
    assertFalse(e.getMessage().contains("s3cret"), e.getMessage());
    assertEquals(1, e.problems().size());
  }

  @Test
  void everyProblemIsReportedInFileOrder() {
    InventoryException e =
        assertThrows(
            InventoryException.class,
            () -> load("hosts:\n  b: {port: 99999}\n  a: {become: sud, usr: x}\n", "/x"));
    assertEquals(
        "hosts.yaml:2:13: hosts.b.port: expected a TCP port, 1 to 65535\n"
            + "hosts.yaml:3:15: hosts.a.become: expected one of none, sudo, got 'sud'; did you"
            + " mean 'sudo'?\n"
            + "hosts.yaml:3:20: hosts.a.usr: unknown key; did you mean 'user'?",
        e.getMessage());
    assertEquals(2, e.exitCode());
  }

  @Test
  void pathsAreNormalizedLikeTheFileSystemWould() {
    assertEquals("/a/c", HostsReader.normalize("/a/b/../c"));
    assertEquals("/c", HostsReader.normalize("/../c"));
    assertEquals("../c", HostsReader.normalize("a/../../c"));
    assertEquals("a/b", HostsReader.normalize("a//./b/"));
  }
}
