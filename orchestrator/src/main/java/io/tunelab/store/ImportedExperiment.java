package io.tunelab.store;

/**
 * What {@code import} did with one experiment of the file it read: added it as experiment {@code
 * id}, found it already there as {@code id}, or left it out (id 0, {@code reason} says why).
 */
public record ImportedExperiment(
    long sourceId,
    String name,
    String uuid,
    String status,
    long trials,
    Outcome outcome,
    long id,
    String reason) {

  /** What became of one experiment. */
  public enum Outcome {
    ADDED,
    ALREADY_THERE,
    LEFT_OUT
  }
}
