package io.tunelab.run;

import io.tunelab.TunelabException;

/**
 * A host did not come back within the reconnect budget (or Ctrl-C came while waiting for it): the
 * run stops, the interrupted trial and the rest are left for {@code resume}.
 */
final class HostLost extends TunelabException {
  HostLost(String message) {
    super(TRIALS_FAILED, message);
  }
}
