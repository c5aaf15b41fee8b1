package io.tunelab.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.inventory.HostSpec;
import io.tunelab.testing.TestTime;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
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
    SshOptions patient = fx.options().withTimeouts(Duration.ofSeconds(60), Duration.ofSeconds(60));
    long start = System.nanoTime();
    try (SshSessions sessions = new SshSessions(patient)) {
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
    // refused at once, not after the 60 s connect timeout
    assertFaster(Duration.ofSeconds(20), start);
  }

  @Test
  void aPortThatDoesNotSpeakSshIsReported() throws Exception {
    SshFixture fx = new SshFixture(dir);
    CountDownLatch testOver = new CountDownLatch(1);
    try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread acceptor =
          new Thread(
              () -> {
                try (Socket s = silent.accept()) {
                  s.getOutputStream().write("HTTP/1.1 400 Bad Request\r\n\r\n".getBytes());
                  testOver.await();
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
      // ended by the 1 s handshake timeout: the peer holds the connection open until the end
      assertFaster(Duration.ofSeconds(20), start);
    } finally {
      testOver.countDown();
    }
  }

  private static void assertFaster(Duration bound, long startNanos) {
    Duration took = Duration.ofNanos(System.nanoTime() - startNanos);
    assertTrue(took.compareTo(TestTime.scaled(bound)) < 0, "took " + took);
  }
}
