package io.tunelab.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.inventory.HostSpec;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A host that cannot be reached fails fast, naming the host and what to check. */
class ConnectFailureTest {
  @TempDir Path dir;

  @Test
  void aClosedPortIsRefusedFast() throws Exception {
    SshFixture fx = new SshFixture(dir);
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    HostSpec spec = fx.host("address: 127.0.0.1", "port: " + port, "user: root");
    long start = System.nanoTime();
    try (SshSessions sessions = new SshSessions(fx.options())) {
      HostRefusedException e =
          assertThrows(HostRefusedException.class, () -> sessions.connect(spec));
      assertEquals(3, e.exitCode());
      assertEquals(
          "host srv1: cannot connect to root@127.0.0.1:"
              + port
              + ": connection refused (is sshd running there?); check address: and port: for srv1"
              + " in hosts.yaml",
          e.getMessage());
    }
    assertTrue(Duration.ofNanos(System.nanoTime() - start).toMillis() < 3000);
  }

  @Test
  void aPortThatDoesNotSpeakSshIsReported() throws Exception {
    SshFixture fx = new SshFixture(dir);
    try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread acceptor =
          new Thread(
              () -> {
                try (Socket s = silent.accept()) {
                  s.getOutputStream().write("HTTP/1.1 400 Bad Request\r\n\r\n".getBytes());
                  Thread.sleep(5000);
                } catch (Exception e) {
                  // the test is over
                }
              });
      acceptor.setDaemon(true);
      acceptor.start();
      HostSpec spec = fx.host("address: 127.0.0.1", "port: " + silent.getLocalPort(), "user: root");
      SshOptions quick = fx.options().withTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(1));
      long start = System.nanoTime();
      try (SshSessions sessions = new SshSessions(quick)) {
        HostRefusedException e =
            assertThrows(HostRefusedException.class, () -> sessions.connect(spec));
        assertTrue(
            e.getMessage()
                .startsWith(
                    "host srv1: SSH handshake with root@127.0.0.1:"
                        + silent.getLocalPort()
                        + " failed: no answer within 1 s"),
            e.getMessage());
      }
      assertTrue(Duration.ofNanos(System.nanoTime() - start).toMillis() < 3000);
    }
  }
}
