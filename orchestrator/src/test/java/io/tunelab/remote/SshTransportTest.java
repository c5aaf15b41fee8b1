package io.tunelab.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.inventory.HostSpec;
import io.tunelab.testing.TestTime;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Commands over one SSH session: streams, exit codes, timeouts, long-lived channels. */
class SshTransportTest {
  private static final Duration T = Duration.ofSeconds(20);

  @TempDir static Path dir;
  static TestSshServer server;
  static SshSessions sessions;
  static Transport ssh;
  static HostSpec spec;

  @BeforeAll
  static void connect() throws Exception {
    SshFixture fx = new SshFixture(dir);
    server = TestSshServer.start();
    spec = fx.hostFor(server, fx.authorizedKey(server, "id_ed25519", "ed25519"));
    sessions = new SshSessions(fx.options());
    ssh = sessions.connect(spec);
  }

  @AfterAll
  static void close() throws IOException {
    sessions.close();
    server.close();
  }

  @Test
  void exitCodeAndStreamsStayApart() throws IOException {
    Transport.ExecResult r = ssh.exec("echo out; echo err >&2; exit 3", null, T);
    assertEquals(3, r.exitCode());
    assertEquals("out\n", r.stdoutText());
    assertEquals("err\n", r.stderrText());
    assertEquals("srv1", ssh.host());
  }

  @Test
  void commandsRunWithShWhateverTheQuotes() throws IOException {
    Transport.ExecResult r = ssh.exec("printf '%s|' \"it's\" '$HOME' a\\ b", null, T);
    assertEquals("it's|$HOME|a b|", r.stdoutText());
  }

  @Test
  void stdinIsFedAndThenClosed() throws IOException {
    byte[] input = new byte[1 << 20];
    Arrays.fill(input, (byte) 'x');
    Transport.ExecResult r = ssh.exec("wc -c", input, T);
    assertEquals(0, r.exitCode());
    assertEquals(String.valueOf(1 << 20), r.stdoutText().trim());
  }

  @Test
  void severalMebibytesOnBothStreamsAtOnce() throws IOException {
    String both = "yes stdout-line | head -c 6000000 & yes stderr-line | head -c 5000000 >&2; wait";
    Transport.ExecResult r = ssh.exec(both, null, T);
    assertEquals(0, r.exitCode());
    assertEquals(6_000_000, r.stdout().length);
    assertEquals(5_000_000, r.stderr().length);
    assertTrue(r.stdoutText().startsWith("stdout-line\nstdout-line\n"));
    assertTrue(r.stderrText().startsWith("stderr-line\nstderr-line\n"));
  }

  @Test
  void aCommandThatOutlivesItsTimeoutFailsFast() {
    long start = System.nanoTime();
    IOException e =
        assertThrows(IOException.class, () -> ssh.exec("sleep 60", null, Duration.ofMillis(300)));
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertEquals("host srv1: timed out after 300 ms: sleep 60", e.getMessage());
    // not held until the command ends
    assertTrue(took.compareTo(TestTime.scaled(Duration.ofSeconds(10))) < 0, "took " + took);
  }

  @Test
  void anOpenChannelStreamsAndAnswersLineByLine() throws Exception {
    try (Transport.Channel channel =
        ssh.open("echo ready; while read -r line; do echo \"got $line\"; done")) {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(channel.stdout(), StandardCharsets.UTF_8));
      // Arrives before any input and long before the command exits: nothing waits for the end.
      assertEquals("ready", out.readLine());
      OutputStream in = channel.stdin();
      // each answer is read before the next request is written: nothing is buffered to the end
      // (bench/controller.sh prints how long a round trip takes)
      for (int i = 0; i < 100; i++) {
        in.write(("request " + i + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
        assertEquals("got request " + i, out.readLine());
      }
      assertTrue(channel.isOpen());
      in.close();
      assertEquals(null, out.readLine());
    }
  }

  @Test
  void anOpenChannelKeepsStderrApart() throws Exception {
    try (Transport.Channel channel = ssh.open("echo oops >&2; echo fine")) {
      assertEquals("fine\n", new String(channel.stdout().readAllBytes(), StandardCharsets.UTF_8));
      assertEquals("oops\n", new String(channel.stderr().readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  @Test
  void oneSessionServesEveryCommandAndConnectReusesIt() throws Exception {
    int before = server.sessions.get();
    for (int i = 0; i < 20; i++) {
      assertEquals(0, ssh.exec("true", null, T).exitCode());
    }
    try (Transport.Channel c1 = ssh.open("cat");
        Transport.Channel c2 = ssh.open("cat")) {
      assertTrue(c1.isOpen() && c2.isOpen());
    }
    assertSame(ssh, sessions.connect(spec));
    assertEquals(before, server.sessions.get());
  }

  @Test
  void aClosedTransportIsReplacedOnTheNextConnect() throws Exception {
    SshFixture fx = new SshFixture(dir.resolve("reconnect"));
    try (SshSessions own = new SshSessions(fx.options())) {
      HostSpec host = fx.hostFor(server, fx.authorizedKey(server, "id_reconnect", "ed25519"));
      Transport first = own.connect(host);
      first.close();
      IOException e = assertThrows(IOException.class, () -> first.exec("true", null, T));
      assertTrue(e.getMessage().contains("closed"), e.getMessage());
      Transport second = own.connect(host);
      assertFalse(first == second);
      assertInstanceOf(SshTransport.class, second);
      assertEquals(0, second.exec("true", null, T).exitCode());
    }
  }
}
