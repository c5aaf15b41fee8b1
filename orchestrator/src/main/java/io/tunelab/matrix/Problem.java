package io.tunelab.matrix;

/**
 * One thing wrong with a matrix file, printed as {@code FILE:LINE:COL: KEY: message}.
 *
 * @param key where in the document, e.g. {@code workload.dd.bs} or {@code setup[2].run}
 */
public record Problem(Position position, String key, String message) {
  @Override
  public String toString() {
    return position + ": " + key + ": " + message;
  }
}
