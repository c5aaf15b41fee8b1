package io.tunelab.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tunelab.inventory.HostSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** become: sudo wraps every command in sudo -n and reports a sudo that wants a password. */
class SudoTransportTest {
  private static final Duration T = Duration.ofSeconds(10);

  @TempDir Path dir;

  /** Remembers the commands it is given and answers every exec with {@code answer}. */
  private static final class Recording implements Transport {
    final List<String> commands = new ArrayList<>();
    Transport.ExecResult answer = new Transport.ExecResult(0, new byte[0], new byte[0]);

    @Override
    public String host() {
      return "srv1";
    }

    @Override
    public ExecResult exec(String command, byte[] stdin, Duration timeout) {
      commands.add(command);
      return answer;
    }

    @Override
    public Channel open(String command) {
      commands.add(command);
      return null;
    }

    @Override
    public void close() {}
  }

  private static Transport.ExecResult result(int code, String stderr) {
    return new Transport.ExecResult(code, new byte[0], stderr.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void commandsAreWrappedInNonInteractiveSudo() throws Exception {
    Recording inner = new Recording();
    SudoTransport sudo = new SudoTransport(inner, "bob");
    sudo.exec("echo 'hi' > /proc/sys/vm/dirty_ratio", null, T);
    sudo.open("exec sh /x/agent serve");
    assertEquals(
        List.of(
            "sudo -n -H -- sh -c 'echo '\\''hi'\\'' > /proc/sys/vm/dirty_ratio'",
            "exec sudo -n -H -- sh -c 'exec sh /x/agent serve'"),
        inner.commands);
    assertEquals("srv1", sudo.host());
  }

  @Test
  void aPasswordPromptBecomesAClearRefusal() {
    Recording inner = new Recording();
    inner.answer = result(1, "sudo: a password is required\n");
    SudoTransport sudo = new SudoTransport(inner, "bob");
    HostRefusedException e =
        assertThrows(HostRefusedException.class, () -> sudo.exec("true", null, T));
    assertEquals(3, e.exitCode());
    assertEquals(
        "host srv1: sudo wants a password for user bob; allow NOPASSWD for bob in sudoers (e.g."
            + " 'bob ALL=(root) NOPASSWD: ALL' in /etc/sudoers.d/tunelab) or use user: root",
        e.getMessage());
    assertThrows(HostRefusedException.class, sudo::check);
  }

  @Test
  void theCommandsOwnFailuresAreLeftAlone() throws Exception {
    assertNull(SudoTransport.refusal("srv1", "bob", result(1, "grep: nothing\n")));
    assertNull(SudoTransport.refusal("srv1", "bob", result(0, "")));
    assertEquals(
        "become: sudo, but sudo is not installed; install it or use user: root",
        SudoTransport.refusal("srv1", "bob", result(127, "sh: 1: sudo: not found\n")));
  }

  @Test
  void overSshAFakeSudoRunsTheCommandOrWantsAPassword() throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path fake = bin.resolve("sudo");
    Files.writeString(
        fake,
        String.join(
            "\n",
            "#!/bin/sh",
            "if [ -n \"$FAKE_SUDO_PASSWORD\" ]; then",
            "  echo 'sudo: a password is required' >&2; exit 1",
            "fi",
            "[ \"$1 $2 $3\" = '-n -H --' ] || { echo \"fake sudo: bad options $*\" >&2; exit 2; }",
            "shift 3",
            "SUDO_RAN=yes exec \"$@\"",
            ""));
    Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
    String path = bin + ":" + System.getenv("PATH");
    SshFixture fx = new SshFixture(dir);
    try (TestSshServer good = TestSshServer.start(Map.of("PATH", path));
        TestSshServer prompting =
            TestSshServer.start(Map.of("PATH", path, "FAKE_SUDO_PASSWORD", "1"));
        SshSessions sessions = new SshSessions(fx.options())) {
      Path key = fx.authorizedKey(good, "id", "ed25519");
      prompting.authorize(SshFixture.publicKey(key));
      Files.writeString(
          fx.home.resolve(".ssh/known_hosts"), good.knownHostsLine() + prompting.knownHostsLine());

      HostSpec ok = sudoHost(fx, good, key, "bob");
      Transport t = sessions.connect(ok);
      assertInstanceOf(SudoTransport.class, t);
      assertEquals("yes\n", t.exec("echo $SUDO_RAN", null, T).stdoutText());
      try (Transport.Channel c = t.open("echo $SUDO_RAN")) {
        assertEquals("yes\n", new String(c.stdout().readAllBytes(), StandardCharsets.UTF_8));
      }

      HostSpec no = sudoHost(fx, prompting, key, "carol");
      HostRefusedException e;
      try (SshSessions others = new SshSessions(fx.options())) {
        e = assertThrows(HostRefusedException.class, () -> others.connect(no));
      }
      assertEquals(
          "host srv1: sudo wants a password for user carol; allow NOPASSWD for carol in sudoers"
              + " (e.g. 'carol ALL=(root) NOPASSWD: ALL' in /etc/sudoers.d/tunelab) or use user:"
              + " root",
          e.getMessage());
    }
  }

  private static HostSpec sudoHost(SshFixture fx, TestSshServer server, Path key, String user) {
    return fx.host(
        "address: 127.0.0.1",
        "port: " + server.port(),
        "user: " + user,
        "identity: " + key,
        "become: sudo");
  }
}
