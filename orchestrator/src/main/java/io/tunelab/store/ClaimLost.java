package io.tunelab.store;

import io.tunelab.TunelabException;

/**
 * A worker's claim of a queued experiment is no longer current (another worker took it over after
 * the lease ran out, or an operator cancelled or held it): the worker's transactions on it are
 * refused, so it stops before its next trial and writes nothing more. Exit code 3.
 */
public final class ClaimLost extends TunelabException {
  public ClaimLost(String message) {
    super(HOST_REFUSED, message);
  }
}
