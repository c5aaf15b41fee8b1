package io.tunelab.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.inventory.HostSpec;
import io.tunelab.testing.Prerequisites;
import io.tunelab.testing.TestTime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Logging in with key files, passphrases from the environment, and ssh-agent. */
class SshAuthTest {
  private static final String SECRET = "correct horse battery";

  static TestSshServer server;
  @TempDir Path dir;

  @BeforeAll
  static void start() throws Exception {
    server = TestSshServer.start();
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static String echo(SshFixture fx, HostSpec spec) throws Exception {
    try (SshSessions sessions = new SshSessions(fx.options())) {
      return sessions.connect(spec).exec("echo ok", null, Duration.ofSeconds(10)).stdoutText();
    }
  }

  private static HostRefusedException refused(SshFixture fx, HostSpec spec) {
    try (SshSessions sessions = new SshSessions(fx.options())) {
      HostRefusedException e =
          assertThrows(HostRefusedException.class, () -> sessions.connect(spec));
      assertEquals(3, e.exitCode());
      assertFalse(e.getMessage().contains("\n"), e.getMessage());
      return e;
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"ed25519", "ecdsa", "rsa"})
  void everyUsualKeyTypeLogsIn(String type) throws Exception {
    SshFixture fx = new SshFixture(dir);
    Path key = fx.authorizedKey(server, "id_" + type, type);
    assertEquals("ok\n", echo(fx, fx.hostFor(server, key)));
  }

  @Test
  void thePassphraseComesFromTheVariableTheInventoryNames() throws Exception {
    SshFixture fx = new SshFixture(dir);
    Path key = fx.keygen("id_locked", "ed25519", SECRET);
    server.authorize(SshFixture.publicKey(key));
    fx.env.put("LAB_KEY_PASS", SECRET);
    HostSpec spec =
        fx.host(
            "address: 127.0.0.1",
            "port: " + server.port(),
            "identity: id_locked",
            "known_hosts: " + fx.knownHosts(server),
            "passphrase_env: LAB_KEY_PASS");
    assertEquals(key.toString(), spec.identity());
    assertEquals("ok\n", echo(fx, spec));
  }

  @Test
  void theDefaultPassphraseVariableIsTunelabSshPassphrase() throws Exception {
    SshFixture fx = new SshFixture(dir);
    Path key = fx.keygen("id_locked_rsa", "rsa", SECRET);
    server.authorize(SshFixture.publicKey(key));
    fx.env.put("TUNELAB_SSH_PASSPHRASE", SECRET);
    assertEquals("ok\n", echo(fx, fx.hostFor(server, key)));
  }

  @Test
  void aMissingPassphraseSaysWhereToPutIt() throws Exception {
    SshFixture fx = new SshFixture(dir);
    Path key = fx.keygen("id_locked", "ecdsa", SECRET);
    server.authorize(SshFixture.publicKey(key));
    HostRefusedException e = refused(fx, fx.hostFor(server, key));
    assertEquals(
        "host srv1: identity file "
            + key
            + " is protected by a passphrase; put it in the environment variable"
            + " TUNELAB_SSH_PASSPHRASE or add the key to ssh-agent",
        e.getMessage());
  }

  @Test
  void aWrongPassphraseIsNamedButNeverShown() throws Exception {
    SshFixture fx = new SshFixture(dir);
    Path key = fx.keygen("id_locked", "ed25519", SECRET);
    fx.env.put("TUNELAB_SSH_PASSPHRASE", "wrong-guess-42");
    HostRefusedException e = refused(fx, fx.hostFor(server, key));
    assertEquals(
        "host srv1: identity file "
            + key
            + ": the passphrase in $TUNELAB_SSH_PASSPHRASE does not open it",
        e.getMessage());
    assertFalse(e.getMessage().contains("wrong-guess-42"));
    for (Throwable t = e; t != null; t = t.getCause()) {
      assertFalse(String.valueOf(t.getMessage()).contains("wrong-guess-42"));
    }
  }

  @Test
  void aKeyOthersCanReadIsRefusedAsOpenSshDoes() throws Exception {
    SshFixture fx = new SshFixture(dir);
    Path key = fx.authorizedKey(server, "id_open", "ed25519");
    Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r--r--"));
    HostRefusedException e = refused(fx, fx.hostFor(server, key));
    assertEquals(
        "host srv1: identity file "
            + key
            + " can be read by others (mode rw-r--r--); SSH refuses such keys: chmod 600 "
            + key,
        e.getMessage());

    Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
    assertEquals("ok\n", echo(fx, fx.hostFor(server, key)));
  }

  @Test
  void aMissingIdentityFileIsNamed() throws Exception {
    SshFixture fx = new SshFixture(dir);
    HostSpec spec =
        fx.host("address: 127.0.0.1", "port: " + server.port(), "identity: keys/id_nope");
    HostRefusedException e = refused(fx, spec);
    assertEquals(
        "host srv1: identity file "
            + dir.resolve("keys/id_nope")
            + " does not exist; fix identity: for srv1 in hosts.yaml",
        e.getMessage());
  }

  @Test
  void aKeyTheHostRefusesEndsInAClearMessage() throws Exception {
    SshFixture fx = new SshFixture(dir);
    Path key = fx.keygen("id_stranger", "ed25519", "");
    HostRefusedException e = refused(fx, fx.hostFor(server, key));
    String user = System.getProperty("user.name");
    assertEquals(
        "host srv1: authentication as "
            + user
            + " failed at 127.0.0.1:"
            + server.port()
            + " (offered: "
            + key
            + "); check user: and identity: for srv1 in hosts.yaml, and that the public key is in ~"
            + user
            + "/.ssh/authorized_keys on the host",
        e.getMessage());
  }

  @Test
  void withoutAnIdentityTheDefaultKeysInHomeAreTried() throws Exception {
    SshFixture fx = new SshFixture(dir);
    Path key = fx.keygen("home/.ssh/id_ecdsa", "ecdsa", "");
    server.authorize(SshFixture.publicKey(key));
    HostSpec spec =
        fx.host(
            "address: 127.0.0.1",
            "port: " + server.port(),
            "known_hosts: " + fx.knownHosts(server));
    assertEquals("ok\n", echo(fx, spec));
  }

  @Test
  void keysInSshAgentLogIn() throws Exception {
    boolean tools =
        Files.isExecutable(Path.of("/usr/bin/ssh-agent"))
            && Files.isExecutable(Path.of("/usr/bin/ssh-add"));
    Prerequisites.require(tools, "ssh-agent and ssh-add are needed (Debian openssh-client)");
    SshFixture fx = new SshFixture(dir);
    Path key = fx.keygen("agent_key", "ed25519", "");
    server.authorize(SshFixture.publicKey(key));
    Path socket = dir.resolve("agent.sock");
    Process agent =
        new ProcessBuilder("ssh-agent", "-D", "-a", socket.toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("agent.log").toFile())
            .start();
    try {
      assertTrue(
          TestTime.poll(Duration.ofSeconds(10), Duration.ofMillis(20), () -> Files.exists(socket)),
          "ssh-agent made no socket: " + Files.readString(dir.resolve("agent.log")));
      ProcessBuilder add = new ProcessBuilder("ssh-add", key.toString()).redirectErrorStream(true);
      add.environment().put("SSH_AUTH_SOCK", socket.toString());
      Process adding = add.start();
      adding.getInputStream().readAllBytes();
      assertEquals(0, adding.waitFor());
      Files.delete(key); // only the agent can sign now
      fx.env.put("SSH_AUTH_SOCK", socket.toString());
      HostSpec spec =
          fx.host(
              "address: 127.0.0.1",
              "port: " + server.port(),
              "known_hosts: " + fx.knownHosts(server));
      assertEquals("ok\n", echo(fx, spec));
    } finally {
      agent.destroy();
      agent.waitFor(TestTime.seconds(5), TimeUnit.SECONDS);
    }
  }

  @Test
  void anEncryptedKeyIsLeftToTheAgentWhenThereIsOne() throws Exception {
    SshFixture fx = new SshFixture(dir);
    Path key = fx.keygen("id_locked", "ed25519", SECRET);
    Path socket = Files.createFile(dir.resolve("stale.sock")); // exists, answers nothing
    fx.env.put("SSH_AUTH_SOCK", socket.toString());
    HostRefusedException e = refused(fx, fx.hostFor(server, key));
    assertTrue(
        e.getMessage()
            .contains(
                "(offered: ssh-agent); skipped "
                    + key
                    + " (needs its passphrase in $TUNELAB_SSH_PASSPHRASE)"),
        e.getMessage());
  }
}
