package io.tunelab.run;

import io.tunelab.TunelabException;
import io.tunelab.remote.LocalTransport;
import io.tunelab.remote.Transport;

/** Knows only the built-in host {@code local}. */
public final class LocalConnector implements HostConnector {
  @Override
  public Transport connect(String host) {
    if (!host.equals("local")) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          "host " + host + ": unknown host; only the built-in host 'local' is available"
              + " without an inventory");
    }
    return new LocalTransport();
  }
}
