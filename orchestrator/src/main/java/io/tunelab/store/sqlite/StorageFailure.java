package io.tunelab.store.sqlite;

import io.tunelab.TunelabException;

/**
 * The database file could not be written: the disk is full or failed (SQLite's FULL or IOERR). The
 * store keeps a trial's measurements elsewhere when this refuses them.
 */
final class StorageFailure extends TunelabException {
  StorageFailure(String message, Throwable cause) {
    super(HOST_REFUSED, message, cause);
  }
}
