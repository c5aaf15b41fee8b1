package io.tunelab.store;

import java.util.Locale;

/** What an {@code events} row is about (docs/sql.md, events). */
public enum EventKind {
  /** A run or resume began its trials. */
  START,
  /** A trial ended: the line the run printed for it. */
  TRIAL,
  /** Something happened to a host, named in the row. */
  HOST,
  /** Something happened to the run as a whole, such as {@code --max-time} being reached. */
  RUN,
  /** Any other line the run printed: warnings, Ctrl-C. */
  MESSAGE,
  /** The error that ended the run. */
  ERROR;

  /** As {@code events.kind} spells it. */
  public String text() {
    return name().toLowerCase(Locale.ROOT);
  }
}
