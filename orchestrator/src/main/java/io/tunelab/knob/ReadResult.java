package io.tunelab.knob;

/**
 * One file as the agent's {@code read} verb reported it.
 *
 * @param raw the file's content as read (a scheduler file's whole line); empty when missing
 * @param resolved the file the path leads to through symlinks, when that is another path; else null
 */
public record ReadResult(State state, String raw, String resolved) {

  /** Whether the file exists and whether it can be written. */
  public enum State {
    RW,
    RO,
    MISSING
  }

  public ReadResult {
    raw = raw == null ? "" : raw;
  }

  /** A file whose path leads to no other. */
  public ReadResult(State state, String raw) {
    this(state, raw, null);
  }

  /** The same read, known to lead to {@code file}. */
  public ReadResult at(String file) {
    return new ReadResult(state, raw, file);
  }

  /** The file {@code path}, as read, leads to. */
  public String file(String path) {
    return resolved == null ? path : resolved;
  }

  /** A file that does not exist. */
  public static ReadResult missing() {
    return new ReadResult(State.MISSING, "");
  }

  public boolean exists() {
    return state != State.MISSING;
  }
}
