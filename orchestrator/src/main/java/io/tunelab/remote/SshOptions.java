package io.tunelab.remote;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * Where SSH looks for its files, how long it waits, and how it reads the environment. Tests point
 * {@code home} at a temporary directory and give {@code env} a map.
 *
 * @param home the local user's home: {@code ~} in paths, and the default {@code ~/.ssh} files
 * @param sshConfig the OpenSSH client config to honour, or null for none
 * @param localUser the login user when neither the inventory nor the config names one
 * @param env reads an environment variable ({@code SSH_AUTH_SOCK}, passphrase variables); null when
 *     unset
 * @param connectTimeout TCP connect and SSH handshake
 * @param authTimeout authentication, once connected
 * @param keepalive interval of keepalive requests; a host that misses four in a row is dropped
 */
public record SshOptions(
    Path home,
    Path sshConfig,
    String localUser,
    Function<String, String> env,
    Duration connectTimeout,
    Duration authTimeout,
    Duration keepalive) {

  /** Defaults from this process: {@code user.home}, {@code ~/.ssh/config}, the real environment. */
  public static SshOptions fromEnvironment() {
    Path home = Path.of(System.getProperty("user.home"));
    return forHome(home, System::getenv).withSshConfig(home.resolve(".ssh/config"));
  }

  /** Default timeouts, no ssh config file, the given home and environment. */
  public static SshOptions forHome(Path home, Function<String, String> env) {
    return new SshOptions(
        home,
        null,
        System.getProperty("user.name"),
        env,
        Duration.ofSeconds(10),
        Duration.ofSeconds(30),
        Duration.ofSeconds(15));
  }

  public SshOptions withSshConfig(Path config) {
    return new SshOptions(home, config, localUser, env, connectTimeout, authTimeout, keepalive);
  }

  public SshOptions withTimeouts(Duration connect, Duration auth) {
    return new SshOptions(home, sshConfig, localUser, env, connect, auth, keepalive);
  }

  /** The same, with keepalive requests every {@code interval} ({@code run --keepalive}). */
  public SshOptions withKeepalive(Duration interval) {
    return new SshOptions(home, sshConfig, localUser, env, connectTimeout, authTimeout, interval);
  }

  /** A path from the inventory or config: {@code ~/x} is under {@link #home}. */
  public Path expand(String path) {
    if (path.equals("~")) {
      return home;
    }
    if (path.startsWith("~/")) {
      return home.resolve(path.substring(2));
    }
    return Path.of(path);
  }

  /** {@code ~/.ssh/known_hosts}. */
  public Path defaultKnownHosts() {
    return home.resolve(".ssh/known_hosts");
  }

  /** The keys OpenSSH tries when no IdentityFile is given, in its order. */
  public List<Path> defaultIdentities() {
    Path ssh = home.resolve(".ssh");
    return List.of(ssh.resolve("id_ed25519"), ssh.resolve("id_ecdsa"), ssh.resolve("id_rsa"));
  }
}
