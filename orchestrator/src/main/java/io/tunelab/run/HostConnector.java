package io.tunelab.run;

import io.tunelab.inventory.BootSpec;
import io.tunelab.remote.Transport;
import io.tunelab.store.TestbedHost;

/** Opens a transport to a host named in the matrix's roles, and says how the host boots. */
public interface HostConnector {
  Transport connect(String host);

  /** How {@code host} changes kernel, from its inventory entry. */
  default BootSpec boot(String host) {
    return BootSpec.DEFAULT;
  }

  /**
   * What identifies {@code host} across testbeds, once connected: where it is reached and the
   * fingerprint of its SSH host key (null when it has none).
   */
  default TestbedHost identity(String role, String host) {
    return new TestbedHost(role, host, host, null);
  }

  /**
   * Drops {@code host}'s connection, so that the next {@link #connect} makes a new one: a host that
   * is about to reboot leaves a connection that may look open for minutes.
   */
  default void disconnect(String host) {}
}
