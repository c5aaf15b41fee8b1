package io.tunelab.run;

import io.tunelab.inventory.BootSpec;
import io.tunelab.inventory.HostSpec;
import io.tunelab.inventory.Inventory;
import io.tunelab.remote.LocalTransport;
import io.tunelab.remote.SshOptions;
import io.tunelab.remote.SshSessions;
import io.tunelab.remote.Transport;
import io.tunelab.store.TestbedHost;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Knows the built-in host {@code local} and every host of an inventory, reached over SSH with one
 * session per host. Close it when the command ends: that closes the SSH sessions.
 */
public final class SshConnector implements HostConnector, AutoCloseable {
  private final Inventory inventory;
  private final SshSessions sessions;

  public SshConnector(Inventory inventory, SshOptions options) {
    this.inventory = inventory;
    this.sessions = new SshSessions(options);
  }

  /** With {@code ~/.ssh/config}, {@code ~/.ssh/known_hosts} and the real environment. */
  public SshConnector(Inventory inventory) {
    this(inventory, SshOptions.fromEnvironment());
  }

  public Inventory inventory() {
    return inventory;
  }

  /**
   * The transport to {@code host}; the same one again while its session lasts.
   *
   * @throws io.tunelab.TunelabException exit code 2 for a host the inventory lacks, 3 for a host
   *     that refuses (unreachable, host key, authentication, sudo)
   */
  @Override
  public Transport connect(String host) {
    if (host.equals(Inventory.LOCAL)) {
      return new LocalTransport(
          inventory.hosts().stream().map(HostSpec::passphraseVariable).toList());
    }
    return sessions.connect(inventory.require(host));
  }

  @Override
  public BootSpec boot(String host) {
    return host.equals(Inventory.LOCAL) ? BootSpec.DEFAULT : inventory.require(host).boot();
  }

  /** {@code ADDRESS:PORT} and the host key's fingerprint; {@code local@HOST} for the controller. */
  @Override
  public TestbedHost identity(String role, String host) {
    if (host.equals(Inventory.LOCAL)) {
      return new TestbedHost(role, host, localAddress(), null);
    }
    return new TestbedHost(role, host, inventory.require(host).endpoint(), sessions.hostKey(host));
  }

  /** The controller as a testbed's host: {@code local@} its host name. */
  public static String localAddress() {
    try {
      return Inventory.LOCAL + "@" + InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return Inventory.LOCAL + "@localhost";
    }
  }

  @Override
  public void disconnect(String host) {
    if (!host.equals(Inventory.LOCAL)) {
      sessions.drop(host);
    }
  }

  @Override
  public void close() {
    sessions.close();
  }
}
