package io.tunelab.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tunelab.inventory.HostSpec;
import io.tunelab.inventory.Inventory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.sshd.common.config.keys.AuthorizedKeyEntry;
import org.apache.sshd.common.config.keys.PublicKeyEntryResolver;

/** Keys, inventories and options for SSH tests, all inside one temporary directory. */
final class SshFixture {
  final Path dir;
  final Path home;
  final Map<String, String> env = new HashMap<>();

  SshFixture(Path dir) throws IOException {
    this.dir = dir;
    this.home = Files.createDirectories(dir.resolve("home"));
    Files.createDirectories(home.resolve(".ssh"));
  }

  /** Options that see only this fixture's home and environment, with short timeouts. */
  SshOptions options() {
    return SshOptions.forHome(home, env::get)
        .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(10));
  }

  /** The home of a server started with {@link #remoteEnv}. */
  Path remoteHome() {
    return dir.resolve("remote-home");
  }

  /**
   * The environment of a server whose commands run as on a remote host: a home of their own, {@link
   * #remoteHome}, and an agent state directory in the fixture.
   */
  Map<String, String> remoteEnv() throws IOException {
    Path home = Files.createDirectories(remoteHome());
    return Map.of(
        "HOME", home.toString(),
        "XDG_CACHE_HOME", home.resolve(".cache").toString(),
        "TUNELAB_STATE", dir.resolve("state").toString());
  }

  /** A new key made by ssh-keygen; returns the private key file. */
  Path keygen(String name, String type, String passphrase) throws Exception {
    Path key = dir.resolve(name);
    List<String> argv =
        type.equals("rsa")
            ? List.of(
                "ssh-keygen",
                "-q",
                "-t",
                "rsa",
                "-b",
                "2048",
                "-N",
                passphrase,
                "-f",
                key.toString())
            : List.of("ssh-keygen", "-q", "-t", type, "-N", passphrase, "-f", key.toString());
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), "ssh-keygen failed: " + output);
    return key;
  }

  static PublicKey publicKey(Path privateKey) throws Exception {
    String line = Files.readString(Path.of(privateKey + ".pub")).trim();
    return AuthorizedKeyEntry.parseAuthorizedKeyEntry(line)
        .resolvePublicKey(null, PublicKeyEntryResolver.FAILING);
  }

  /** A key authorized on {@code server}. */
  Path authorizedKey(TestSshServer server, String name, String type) throws Exception {
    Path key = keygen(name, type, "");
    server.authorize(publicKey(key));
    return key;
  }

  /** A known_hosts file in the fixture listing {@code servers}. */
  Path knownHosts(TestSshServer... servers) throws IOException {
    StringBuilder text = new StringBuilder();
    for (TestSshServer s : servers) {
      text.append(s.knownHostsLine());
    }
    Path file = dir.resolve("known_hosts");
    Files.writeString(file, text.toString());
    return file;
  }

  /** The one host of an inventory written as YAML lines under {@code hosts: srv1:}. */
  HostSpec host(String... settings) {
    StringBuilder yaml = new StringBuilder("hosts:\n  srv1:\n");
    for (String s : settings) {
      yaml.append("    ").append(s).append('\n');
    }
    return Inventory.load("hosts.yaml", yaml.toString(), dir.toString()).require("srv1");
  }

  /** srv1 on {@code server} with {@code key}, checked against a known_hosts listing it. */
  HostSpec hostFor(TestSshServer server, Path key) throws IOException {
    return host(
        "address: 127.0.0.1",
        "port: " + server.port(),
        "identity: " + key,
        "known_hosts: " + knownHosts(server));
  }
}
