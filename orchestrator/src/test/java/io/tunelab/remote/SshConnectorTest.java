package io.tunelab.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tunelab.TunelabException;
import io.tunelab.inventory.Inventory;
import io.tunelab.run.SshConnector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The connector knows local and the inventory's hosts, and nothing else. */
class SshConnectorTest {
  @TempDir Path dir;

  @Test
  void localInventoryHostsAndUnknownNames() throws Exception {
    SshFixture fx = new SshFixture(dir);
    try (TestSshServer server = TestSshServer.start()) {
      Path key = fx.authorizedKey(server, "id", "ed25519");
      Files.writeString(fx.home.resolve(".ssh/known_hosts"), server.knownHostsLine());
      Inventory inventory =
          Inventory.load(
              "hosts.yaml",
              "hosts:\n  server1:\n    address: 127.0.0.1\n    port: "
                  + server.port()
                  + "\n    identity: id\n",
              dir.toString());
      try (SshConnector connector = new SshConnector(inventory, fx.options())) {
        assertInstanceOf(LocalTransport.class, connector.connect("local"));
        Transport ssh = connector.connect("server1");
        assertEquals("server1", ssh.host());
        assertEquals("ok\n", ssh.exec("echo ok", null, Duration.ofSeconds(10)).stdoutText());
        assertSame(ssh, connector.connect("server1"));
        TunelabException e =
            assertThrows(TunelabException.class, () -> connector.connect("server2"));
        assertEquals(2, e.exitCode());
        assertEquals(
            "host server2: unknown host; it is not in hosts.yaml (hosts: server1, local); did you"
                + " mean 'server1'?",
            e.getMessage());
      }
    }
  }

  @Test
  void withoutAnInventoryOnlyLocalIsKnown() {
    try (SshConnector connector = new SshConnector(Inventory.empty())) {
      assertInstanceOf(LocalTransport.class, connector.connect("local"));
      TunelabException e = assertThrows(TunelabException.class, () -> connector.connect("srv1"));
      assertEquals(2, e.exitCode());
      assertEquals(
          "host srv1: unknown host; no inventory was given (--hosts FILE, or hosts: in the"
              + " matrix)",
          e.getMessage());
    }
  }
}
