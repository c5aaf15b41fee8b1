package io.tunelab;

/** The one failure type that reaches {@code main}: a message for the user and an exit code. */
public class TunelabException extends RuntimeException {
  /** The run finished but some trials failed. */
  public static final int TRIALS_FAILED = 1;

  /** Bad usage or bad matrix: nothing was touched. */
  public static final int BAD_INPUT = 2;

  /** A host or the environment refused (preflight). */
  public static final int HOST_REFUSED = 3;

  /** A bug or an unexpected state inside tunelab. */
  public static final int INTERNAL = 4;

  private final int exitCode;

  public TunelabException(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  public TunelabException(int exitCode, String message, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  public int exitCode() {
    return exitCode;
  }
}
