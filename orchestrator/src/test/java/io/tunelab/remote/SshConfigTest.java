package io.tunelab.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.TunelabException;
import io.tunelab.inventory.HostSpec;
import io.tunelab.inventory.Inventory;
import io.tunelab.testing.TestTime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.apache.sshd.client.config.hosts.HostConfigEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ~/.ssh/config: aliases with HostName, Port, User, IdentityFile and ProxyJump are honoured. */
class SshConfigTest {
  @TempDir Path dir;

  private static String run(SshFixture fx, Path config, HostSpec spec) throws Exception {
    try (SshSessions sessions = new SshSessions(fx.options().withSshConfig(config))) {
      return sessions.connect(spec).exec("echo ok", null, Duration.ofSeconds(10)).stdoutText();
    }
  }

  @Test
  void anAliasGivesHostNamePortUserAndIdentity() throws Exception {
    SshFixture fx = new SshFixture(dir);
    try (TestSshServer server = TestSshServer.start()) {
      Path key = fx.authorizedKey(server, "lab_key", "ecdsa");
      Path config = dir.resolve("ssh_config");
      Files.writeString(
          config,
          String.join(
              "\n",
              "# Match sections are skipped, not an error",
              "Match exec \"true\"",
              "  User nobody-at-all",
              "Host lab1",
              "  HostName 127.0.0.1",
              "  Port " + server.port(),
              "  User alice",
              "  IdentityFile " + key,
              "Host *",
              "  ServerAliveInterval 30",
              ""));
      Files.writeString(fx.home.resolve(".ssh/known_hosts"), server.knownHostsLine());
      HostSpec spec =
          Inventory.load("hosts.yaml", "hosts:\n  lab1: {}\n", dir.toString()).require("lab1");
      assertEquals("lab1", spec.address());
      assertEquals("ok\n", run(fx, config, spec));
      assertEquals(Set.of("alice"), server.users);
    }
  }

  @Test
  void theInventorysPortAndUserWinOverTheConfigs() throws Exception {
    SshFixture fx = new SshFixture(dir);
    try (TestSshServer server = TestSshServer.start()) {
      Path key = fx.authorizedKey(server, "lab_key", "ed25519");
      Path config = dir.resolve("ssh_config");
      Files.writeString(config, "Host lab1\n  HostName 127.0.0.1\n  Port 1\n  User alice\n");
      HostSpec spec =
          fx.host(
              "address: lab1",
              "port: " + server.port(),
              "user: bob",
              "identity: " + key,
              "known_hosts: " + fx.knownHosts(server));
      assertEquals("ok\n", run(fx, config, spec));
      assertEquals(Set.of("bob"), server.users);
    }
  }

  @Test
  void proxyJumpGoesThroughTheJumpHost() throws Exception {
    SshFixture fx = new SshFixture(dir);
    try (TestSshServer jump = TestSshServer.start();
        TestSshServer target = TestSshServer.start()) {
      Path key = fx.authorizedKey(jump, "jump_key", "ed25519");
      target.authorize(SshFixture.publicKey(key));
      Path config = dir.resolve("ssh_config");
      Files.writeString(
          config,
          String.join(
              "\n",
              "Host bastion",
              "  HostName 127.0.0.1",
              "  Port " + jump.port(),
              "  User jumper",
              "  IdentityFile " + key,
              "Host inner",
              "  HostName 127.0.0.1",
              "  Port " + target.port(),
              "  ProxyJump bastion",
              ""));
      Files.writeString(
          fx.home.resolve(".ssh/known_hosts"), jump.knownHostsLine() + target.knownHostsLine());
      HostSpec spec = fx.host("address: inner", "user: worker", "identity: " + key);
      assertEquals("ok\n", run(fx, config, spec));
      assertEquals(1, jump.sessions.get());
      assertEquals(Set.of("jumper"), jump.users);
      assertEquals(Set.of("worker"), target.users);
    }
  }

  @Test
  void anUnknownKeyBehindAJumpHostNamesTheTarget() throws Exception {
    SshFixture fx = new SshFixture(dir);
    try (TestSshServer jump = TestSshServer.start();
        TestSshServer target = TestSshServer.start()) {
      Path key = fx.authorizedKey(jump, "home/.ssh/id_ed25519", "ed25519");
      target.authorize(SshFixture.publicKey(key));
      Path config = dir.resolve("ssh_config");
      Files.writeString(
          config,
          "Host inner\n  HostName 127.0.0.1\n  Port "
              + target.port()
              + "\n  ProxyJump 127.0.0.1:"
              + jump.port()
              + "\n");
      Files.writeString(fx.home.resolve(".ssh/known_hosts"), jump.knownHostsLine());
      HostSpec spec = fx.host("address: inner", "identity: " + key);
      try (SshSessions sessions = new SshSessions(fx.options().withSshConfig(config))) {
        HostRefusedException e =
            assertThrows(HostRefusedException.class, () -> sessions.connect(spec));
        assertTrue(
            e.getMessage()
                .startsWith(
                    "host srv1: unknown host key for [127.0.0.1]:"
                        + target.port()
                        + " (ecdsa-sha2-nistp256 "
                        + target.fingerprint()),
            e.getMessage());
      }
    }
  }

  @Test
  void aJumpHostThatRefusesTheLoginFailsFast() throws Exception {
    SshFixture fx = new SshFixture(dir);
    try (TestSshServer jump = TestSshServer.start();
        TestSshServer target = TestSshServer.start()) {
      Path key = fx.authorizedKey(target, "target_only", "ed25519");
      Path config = dir.resolve("ssh_config");
      Files.writeString(
          config,
          "Host inner\n  HostName 127.0.0.1\n  Port "
              + target.port()
              + "\n  ProxyJump 127.0.0.1:"
              + jump.port()
              + "\n");
      Files.writeString(
          fx.home.resolve(".ssh/known_hosts"), jump.knownHostsLine() + target.knownHostsLine());
      HostSpec spec = fx.host("address: inner", "identity: " + key);
      SshOptions patient =
          fx.options()
              .withSshConfig(config)
              .withTimeouts(Duration.ofSeconds(60), Duration.ofSeconds(60));
      long start = System.nanoTime();
      try (SshSessions sessions = new SshSessions(patient)) {
        HostRefusedException e =
            assertThrows(HostRefusedException.class, () -> sessions.connect(spec));
        assertEquals(
            "host srv1: cannot connect to "
                + System.getProperty("user.name")
                + "@127.0.0.1:"
                + target.port()
                + " through ProxyJump 127.0.0.1:"
                + jump.port()
                + ": the jump host refused the login; check its User and IdentityFile in the SSH"
                + " config, or add its key to ssh-agent",
            e.getMessage());
      }
      // the refusal ends it, not the 60 s timeouts
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      assertTrue(took.compareTo(TestTime.scaled(Duration.ofSeconds(20))) < 0, "took " + took);
    }
  }

  @Test
  void matchSectionsAreDroppedUpToTheNextHost() {
    String config = "Host a\n  Port 1\nMatch all\n  Port 2\n  User x\n  host b\n  Port 3\n";
    assertEquals(
        "Host a\n  Port 1\n\n\n\n  host b\n  Port 3\n\n", SshConfig.withoutMatchSections(config));
  }

  @Test
  void includeIsFollowedWithGlobsRelativeToTheConfigsDirectory() throws Exception {
    Path ssh = Files.createDirectories(dir.resolve("ssh"));
    Path config = ssh.resolve("config");
    Files.writeString(config, "Include config.d/*.conf\nHost *\n  ServerAliveInterval 30\n");
    Path parts = Files.createDirectories(ssh.resolve("config.d"));
    Files.writeString(
        parts.resolve("20-ghost.conf"), "Host ghost4\n  HostName 127.0.0.1\n  Port 2222\n");
    Files.writeString(parts.resolve("10-user.conf"), "Include " + ssh.resolve("user.inc") + "\n");
    Files.writeString(ssh.resolve("user.inc"), "Host ghost4\n  User alice\n");
    Files.writeString(parts.resolve("ignored.txt"), "Host ghost4\n  Port 1\n");

    SshConfig read = SshConfig.read(config, "me");
    HostSpec spec =
        Inventory.load("hosts.yaml", "hosts:\n  ghost4: {}\n", dir.toString()).require("ghost4");
    HostConfigEntry entry = read.resolve(spec);

    assertEquals("127.0.0.1", entry.getHostName());
    assertEquals(2222, entry.getPort());
    assertEquals("alice", entry.getUsername());
    assertEquals(
        List.of(
            config,
            parts.resolve("10-user.conf"),
            ssh.resolve("user.inc"),
            parts.resolve("20-ghost.conf")),
        read.files());
  }

  @Test
  void anIncludeThatIncludesItselfIsRefusedNotFollowedForever() throws Exception {
    Path config = dir.resolve("config");
    Files.writeString(config, "Include " + config + "\n");
    assertTrue(
        assertThrows(TunelabException.class, () -> SshConfig.read(config, "me"))
            .getMessage()
            .contains("Include nested deeper than 16"));
  }
}
