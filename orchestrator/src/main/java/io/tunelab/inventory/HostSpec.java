package io.tunelab.inventory;

import io.tunelab.yaml.Position;

/**
 * One host of the inventory: where it is and how to log in. Unset values are null and are then
 * taken from {@code ~/.ssh/config} or the usual SSH defaults when connecting.
 *
 * @param name the inventory key, as roles in a matrix name it
 * @param address host name, IP address or {@code ~/.ssh/config} alias (defaults to {@code name})
 * @param port TCP port, or null for {@code ~/.ssh/config}'s Port or 22
 * @param user login user, or null for {@code ~/.ssh/config}'s User or the local user
 * @param identity private key file (absolute, or starting with {@code ~/}), or null for the
 *     config's IdentityFile, ssh-agent and {@code ~/.ssh/id_*}
 * @param knownHosts known_hosts file (absolute or {@code ~/}), or null for {@code
 *     ~/.ssh/known_hosts}
 * @param hostKey what to do with a host key known_hosts does not list
 * @param become how commands gain root
 * @param passphraseEnv the environment variable holding the identity's passphrase, or null for
 *     {@code TUNELAB_SSH_PASSPHRASE}
 * @param boot how the host changes kernel, for a {@code ROLE.kernel} axis
 * @param position where the host was written, for messages
 */
public record HostSpec(
    String name,
    String address,
    Integer port,
    String user,
    String identity,
    String knownHosts,
    HostKeyPolicy hostKey,
    Become become,
    String passphraseEnv,
    BootSpec boot,
    Position position) {

  /** The SSH port when the inventory gives none. */
  public static final int DEFAULT_PORT = 22;

  /** Where the host is reached, {@code ADDRESS:PORT}: what identifies it across testbeds. */
  public String endpoint() {
    return address + ":" + (port == null ? DEFAULT_PORT : port);
  }

  /** The environment variable read for a passphrase when the inventory names none. */
  public static final String DEFAULT_PASSPHRASE_ENV = "TUNELAB_SSH_PASSPHRASE";

  /** A host with the default way of booting ({@link BootSpec#DEFAULT}). */
  public HostSpec(
      String name,
      String address,
      Integer port,
      String user,
      String identity,
      String knownHosts,
      HostKeyPolicy hostKey,
      Become become,
      String passphraseEnv,
      Position position) {
    this(
        name,
        address,
        port,
        user,
        identity,
        knownHosts,
        hostKey,
        become,
        passphraseEnv,
        BootSpec.DEFAULT,
        position);
  }

  /** The variable that holds this host's passphrase. */
  public String passphraseVariable() {
    return passphraseEnv == null ? DEFAULT_PASSPHRASE_ENV : passphraseEnv;
  }

  /** The inventory file this host was written in, for "fix it in FILE" hints. */
  public String source() {
    return position == null ? "the inventory" : position.file();
  }
}
