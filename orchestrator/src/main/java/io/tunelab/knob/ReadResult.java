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

  /** From the agent's words: {@code rw}, {@code ro}, {@code missing}. */
  public static ReadResult of(String state, String raw) {
    return switch (state) {
      case "rw" -> new ReadResult(State.RW, raw);
      case "ro" -> new ReadResult(State.RO, raw);
      case "missing" -> new ReadResult(State.MISSING, "");
      default -> throw new IllegalArgumentException("unknown read state '" + state + "'");
    };
  }

  /** A file that does not exist. */
  public static ReadResult missing() {
    return new ReadResult(State.MISSING, "");
  }

  public boolean exists() {
    return state != State.MISSING;
  }
}
