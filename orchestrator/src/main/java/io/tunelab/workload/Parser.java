package io.tunelab.workload;

import java.util.Locale;

/** How a job's output is read into samples. */
public enum Parser {
  /** dd's closing summary: bytes and seconds as dd reports them. */
  DD,
  /** fio's JSON output. */
  FIO,
  /** Lines {@code NAME VALUE [UNIT]}. */
  METRICS,
  /** Nothing is read: the host-timed seconds, and declared bytes if any. */
  NONE;

  /** The parser a matrix names ({@code dd}, {@code fio}, {@code metrics}, {@code none}). */
  public static Parser named(String name) {
    return valueOf(name.toUpperCase(Locale.ROOT));
  }
}
