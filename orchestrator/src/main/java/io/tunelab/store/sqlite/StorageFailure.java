package io.tunelab.store.sqlite;

import io.tunelab.TunelabException;

/**
 * The database file could not be written: the disk is full or failed (SQLite's FULL or IOERR),
 * another process held it past the busy budget (BUSY, LOCKED), or it became read-only (READONLY).
 * The store keeps a trial's measurements elsewhere when this refuses them.
 */
final class StorageFailure extends TunelabException {
  private final String remedy;

  StorageFailure(String message, String remedy, Throwable cause) {
    super(HOST_REFUSED, message, cause);
    this.remedy = remedy;
  }

  /** What the user does before {@code resume} stores the kept trial, e.g. "free some space". */
  String remedy() {
    return remedy;
  }
}
