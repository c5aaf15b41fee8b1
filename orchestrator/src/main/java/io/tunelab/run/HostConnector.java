package io.tunelab.run;

import io.tunelab.remote.Transport;

/** Opens a transport to a host named in the matrix's roles. */
public interface HostConnector {
  Transport connect(String host);
}
