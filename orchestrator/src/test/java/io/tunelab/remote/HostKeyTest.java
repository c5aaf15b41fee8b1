package io.tunelab.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.inventory.HostSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.List;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.keyprovider.KeyPairProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Host keys are checked against known_hosts: unknown and changed keys are refused clearly. */
class HostKeyTest {
  @TempDir Path dir;

  private static HostRefusedException refused(SshFixture fx, HostSpec spec) {
    try (SshSessions sessions = new SshSessions(fx.options())) {
      HostRefusedException e =
          assertThrows(HostRefusedException.class, () -> sessions.connect(spec));
      assertEquals(3, e.exitCode());
      assertFalse(e.getMessage().contains("\n"), e.getMessage());
      return e;
    }
  }

  private static String echo(SshFixture fx, HostSpec spec) throws Exception {
    try (SshSessions sessions = new SshSessions(fx.options())) {
      return sessions.connect(spec).exec("echo ok", null, Duration.ofSeconds(10)).stdoutText();
    }
  }

  @Test
  void anUnknownHostKeyIsRefusedWithItsFingerprint() throws Exception {
    SshFixture fx = new SshFixture(dir);
    try (TestSshServer server = TestSshServer.start()) {
      Path key = fx.authorizedKey(server, "id", "ed25519");
      HostSpec spec = fx.host("address: 127.0.0.1", "port: " + server.port(), "identity: " + key);
      HostRefusedException e = refused(fx, spec);
      Path knownHosts = fx.home.resolve(".ssh/known_hosts");
      assertEquals(
          "host srv1: unknown host key for [127.0.0.1]:"
              + server.port()
              + " (ecdsa-sha2-nistp256 "
              + server.fingerprint()
              + "); if that fingerprint is the host's, add the key to "
              + knownHosts
              + " (e.g. ssh-keyscan -p "
              + server.port()
              + " 127.0.0.1 >> "
              + knownHosts
              + ") or set host_key: accept-new for this host",
          e.getMessage());
      assertTrue(server.fingerprint().startsWith("SHA256:"));
      assertFalse(Files.exists(knownHosts), "strict checking must not write known_hosts");
    }
  }

  @Test
  void aKnownHostKeyIsAccepted() throws Exception {
    SshFixture fx = new SshFixture(dir);
    try (TestSshServer server = TestSshServer.start()) {
      Path key = fx.authorizedKey(server, "id", "ed25519");
      Files.writeString(fx.home.resolve(".ssh/known_hosts"), server.knownHostsLine());
      HostSpec spec = fx.host("address: 127.0.0.1", "port: " + server.port(), "identity: " + key);
      assertEquals("ok\n", echo(fx, spec));
    }
  }

  @Test
  void aChangedHostKeyIsRefused() throws Exception {
    SshFixture fx = new SshFixture(dir);
    try (TestSshServer server = TestSshServer.start()) {
      Path key = fx.authorizedKey(server, "id", "ed25519");
      java.security.PublicKey old = TestSshServer.newHostKey().getPublic();
      Path knownHosts = dir.resolve("known_hosts");
      Files.writeString(
          knownHosts, "[127.0.0.1]:" + server.port() + " " + PublicKeyEntry.toString(old) + "\n");
      HostSpec spec =
          fx.host(
              "address: 127.0.0.1",
              "port: " + server.port(),
              "identity: " + key,
              "known_hosts: known_hosts");
      HostRefusedException e = refused(fx, spec);
      String where = "[127.0.0.1]:" + server.port();
      assertEquals(
          "host srv1: the host key of "
              + where
              + " has CHANGED (now ecdsa-sha2-nistp256 "
              + server.fingerprint()
              + ", "
              + knownHosts
              + " has ecdsa-sha2-nistp256 "
              + KeyUtils.getFingerPrint(old)
              + "); if the host was reinstalled, remove the old key with ssh-keygen -R '"
              + where
              + "' -f "
              + knownHosts
              + ", otherwise someone may be intercepting the connection",
          e.getMessage());
    }
  }

  @Test
  void aHostWithSeveralKeysIsAskedForTheTypeKnownHostsHas() throws Exception {
    SshFixture fx = new SshFixture(dir);
    KeyPair ed = KeyUtils.generateKeyPair(KeyPairProvider.SSH_ED25519, 256);
    KeyPair ec = KeyUtils.generateKeyPair(KeyPairProvider.ECDSA_SHA2_NISTP256, 256);
    KeyPair rsa = KeyUtils.generateKeyPair(KeyPairProvider.SSH_RSA, 2048);
    try (TestSshServer server = TestSshServer.start(ec)) {
      server.setKeys(ec, rsa, ed);
      Path key = fx.authorizedKey(server, "id", "ed25519");
      HostSpec spec =
          fx.host(
              "address: 127.0.0.1",
              "port: " + server.port(),
              "identity: " + key,
              "known_hosts: known_hosts");
      // Like OpenSSH's known_hosts after a first login: one key, of whichever type was agreed.
      for (KeyPair known : List.of(ec, rsa, ed)) {
        Files.writeString(
            dir.resolve("known_hosts"),
            "[127.0.0.1]:"
                + server.port()
                + " "
                + PublicKeyEntry.toString(known.getPublic())
                + "\n");
        assertEquals("ok\n", echo(fx, spec), KeyUtils.getKeyType(known));
      }
      // Debian's ssh hashes host names in known_hosts (HashKnownHosts yes).
      Process hash =
          new ProcessBuilder("ssh-keygen", "-H", "-f", dir.resolve("known_hosts").toString())
              .redirectErrorStream(true)
              .start();
      hash.getInputStream().readAllBytes();
      assertEquals(0, hash.waitFor());
      assertTrue(Files.readString(dir.resolve("known_hosts")).startsWith("|1|"));
      assertEquals("ok\n", echo(fx, spec));
    }
  }

  @Test
  void acceptNewWritesKnownHostsAndStillRefusesAChangedKey() throws Exception {
    SshFixture fx = new SshFixture(dir);
    Path knownHosts = dir.resolve("fresh/known_hosts");
    String line;
    try (TestSshServer first = TestSshServer.start()) {
      Path key = fx.authorizedKey(first, "id", "ed25519");
      HostSpec spec =
          fx.host(
              "address: 127.0.0.1",
              "port: " + first.port(),
              "identity: " + key,
              "known_hosts: fresh/known_hosts",
              "host_key: accept-new");
      assertEquals("ok\n", echo(fx, spec));
      line = Files.readString(knownHosts);
      assertTrue(line.startsWith("[127.0.0.1]:" + first.port() + " ecdsa-sha2-nistp256 "), line);
      // Known now: a second connection is accepted without writing again.
      assertEquals("ok\n", echo(fx, spec));
      assertEquals(line, Files.readString(knownHosts));
    }
    try (TestSshServer second = TestSshServer.start()) {
      Path key = fx.authorizedKey(second, "id2", "ed25519");
      // The same host name and port, now answering with another key.
      Files.writeString(knownHosts, line.replaceFirst(":[0-9]+ ", ":" + second.port() + " "));
      HostSpec spec =
          fx.host(
              "address: 127.0.0.1",
              "port: " + second.port(),
              "identity: " + key,
              "known_hosts: fresh/known_hosts",
              "host_key: accept-new");
      HostRefusedException e = refused(fx, spec);
      assertTrue(
          e.getMessage().contains("has CHANGED (now ecdsa-sha2-nistp256 " + second.fingerprint()),
          e.getMessage());
    }
  }

  private static HostSpec acceptNew(SshFixture fx, TestSshServer server, Path key, String file) {
    return fx.host(
        "address: 127.0.0.1",
        "port: " + server.port(),
        "identity: " + key,
        "known_hosts: " + file,
        "host_key: accept-new");
  }

  @Test
  void acceptNewRefusesAKnownHostsThatIsADirectory() throws Exception {
    SshFixture fx = new SshFixture(dir);
    Files.createDirectories(dir.resolve("kh-dir"));
    try (TestSshServer server = TestSshServer.start()) {
      Path key = fx.authorizedKey(server, "id", "ed25519");
      HostRefusedException e = refused(fx, acceptNew(fx, server, key, "kh-dir"));
      assertTrue(e.getMessage().contains("is a directory"), e.getMessage());
    }
  }

  @Test
  void acceptNewRefusesAKeyItCannotRecord() throws Exception {
    SshFixture fx = new SshFixture(dir);
    Files.writeString(dir.resolve("plain-file"), "not a directory\n");
    try (TestSshServer server = TestSshServer.start()) {
      Path key = fx.authorizedKey(server, "id", "ed25519");
      HostRefusedException e = refused(fx, acceptNew(fx, server, key, "plain-file/known_hosts"));
      assertTrue(
          e.getMessage().contains("accept-new cannot record the new key of [127.0.0.1]:"),
          e.getMessage());
      assertTrue(e.getMessage().contains(server.fingerprint()), e.getMessage());
    }
  }

  @Test
  void aReconnectWithinARunMustShowTheKeySeenFirst() throws Exception {
    SshFixture fx = new SshFixture(dir);
    try (TestSshServer server = TestSshServer.start();
        SshSessions sessions = new SshSessions(fx.options())) {
      Path key = fx.authorizedKey(server, "id", "ed25519");
      HostSpec spec = acceptNew(fx, server, key, "pinned/known_hosts");
      Transport first = sessions.connect(spec);
      assertEquals("ok\n", first.exec("echo ok", null, Duration.ofSeconds(10)).stdoutText());
      first.close();
      // known_hosts removed meanwhile and the host answers with another key: accept-new alone
      // would take it as new.
      Files.delete(dir.resolve("pinned/known_hosts"));
      KeyPair other = TestSshServer.newHostKey();
      server.setKeys(other);

      HostRefusedException e =
          assertThrows(HostRefusedException.class, () -> sessions.connect(spec));
      assertTrue(e.getMessage().contains("changed during this run"), e.getMessage());
      assertTrue(
          e.getMessage().contains(KeyUtils.getFingerPrint(other.getPublic())), e.getMessage());
    }
  }
}
