package io.tunelab.store.sqlite;

import java.util.UUID;

/**
 * Idempotency keys: made once per write, outside the transaction that may run more than once, so
 * that a try whose COMMIT reached the database but whose answer was lost inserts nothing again.
 */
final class Keys {
  private Keys() {}

  /** A new key, unique across controllers. */
  static String fresh() {
    return UUID.randomUUID().toString();
  }
}
