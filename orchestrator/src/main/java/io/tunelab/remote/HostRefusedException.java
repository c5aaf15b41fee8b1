package io.tunelab.remote;

import io.tunelab.TunelabException;

/** A host that cannot be used as configured (exit code 3): the message says what to fix. */
public final class HostRefusedException extends TunelabException {
  private final String host;

  public HostRefusedException(String host, String problem) {
    super(HOST_REFUSED, "host " + host + ": " + problem);
    this.host = host;
  }

  /** The inventory name of the host. */
  public String host() {
    return host;
  }
}
