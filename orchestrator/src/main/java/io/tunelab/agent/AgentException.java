package io.tunelab.agent;

import io.tunelab.TunelabException;

/** The agent on a host could not be started or stopped answering: the host refused. */
public final class AgentException extends TunelabException {
  public AgentException(String host, String message) {
    super(HOST_REFUSED, "host " + host + ": " + message);
  }

  public AgentException(String host, String message, Throwable cause) {
    super(HOST_REFUSED, "host " + host + ": " + message, cause);
  }
}
