package io.tunelab.store.sqlite;

import io.tunelab.TunelabException;

/**
 * The database could not take a write: the disk is full or failed (SQLite's FULL or IOERR), another
 * process held the file past the wait budget (BUSY, LOCKED), it became read-only (READONLY), or a
 * PostgreSQL server stayed away or hung past it. The store keeps a trial's measurements elsewhere
 * when this refuses them.
 */
public final class StorageFailure extends TunelabException {
  private final String remedy;

  public StorageFailure(String message, String remedy, Throwable cause) {
    super(HOST_REFUSED, message, cause);
    this.remedy = remedy;
  }

  /** What the user does before {@code resume} stores the kept trial, e.g. "free some space". */
  String remedy() {
    return remedy;
  }
}
