package io.tunelab.remote;

import java.security.PublicKey;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.sshd.common.config.keys.KeyUtils;

/**
 * The host key each endpoint showed first in this process: a reconnect within a run must show the
 * same one, whatever known_hosts says by then (it may have been edited or removed meanwhile).
 */
final class HostKeyPins {
  private final Map<String, PublicKey> first = new ConcurrentHashMap<>();

  /**
   * Pins {@code key} for {@code where} unless another key is pinned there.
   *
   * @return null when {@code key} is the pinned one (or now pinned), else the key pinned before
   */
  PublicKey pin(String where, PublicKey key) {
    PublicKey pinned = first.putIfAbsent(where, key);
    return pinned == null || KeyUtils.compareKeys(pinned, key) ? null : pinned;
  }
}
