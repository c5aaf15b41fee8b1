package io.tunelab.remote;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The controller's secrets, which stay with it: the environment variables removed from every
 * process it starts on its own machine (local workloads, an inventory's {@code power_cycle}).
 */
public final class ControllerSecrets {
  /**
   * The SSH agent and key passphrase, and libpq's password, password file and TLS client key and
   * its passphrase: a workload has no business with the database's credentials.
   */
  public static final List<String> NAMES =
      List.of(
          "SSH_AUTH_SOCK",
          "TUNELAB_SSH_PASSPHRASE",
          "PGPASSWORD",
          "PGPASSFILE",
          "PGSSLKEY",
          "PGSSLPASSWORD");

  private ControllerSecrets() {}

  /** Removes {@link #NAMES} and {@code more} (an inventory's passphrase_env) from {@code env}. */
  public static void removeFrom(Map<String, String> env, Collection<String> more) {
    env.keySet().removeAll(NAMES);
    env.keySet().removeAll(more);
  }
}
