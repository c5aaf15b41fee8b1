package io.tunelab.knob;

/**
 * One file as the agent's {@code read} verb reported it.
 *
 * @param raw the file's content as read (a scheduler file's whole line); empty when missing
 */
public record ReadResult(State state, String raw) {

  /** Whether the file exists and whether it can be written. */
  public enum State {
    RW,
    RO,
    MISSING
  }

  public ReadResult {
    raw = raw == null ? "" : raw;
  }

  /** A file that does not exist. */
  public static ReadResult missing() {
    return new ReadResult(State.MISSING, "");
  }

  public boolean exists() {
    return state != State.MISSING;
  }
}
