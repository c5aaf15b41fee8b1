package io.tunelab.matrix;

/**
 * A step of {@code before_trial} or {@code after_trial}: {@code sync} or {@code drop_caches} on
 * every host, or a command on one role's host.
 *
 * @param command the step of kind {@code COMMAND} (never capturing); null for the others
 */
public record TrialStep(Kind kind, Step command) {
  /** What the step does. */
  public enum Kind {
    SYNC,
    DROP_CACHES,
    COMMAND
  }

  /** The step as written: {@code sync}, {@code drop_caches}, or the command template. */
  public String text() {
    return switch (kind) {
      case SYNC -> "sync";
      case DROP_CACHES -> "drop_caches";
      case COMMAND -> command.run();
    };
  }
}
