package io.tunelab.matrix;

/** Where something stands in a matrix file, for error messages: {@code file:line:column}. */
public record Position(String file, int line, int column) {
  @Override
  public String toString() {
    return file + ":" + line + ":" + column;
  }
}
