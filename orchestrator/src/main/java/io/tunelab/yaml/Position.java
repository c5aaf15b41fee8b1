package io.tunelab.yaml;

/** Where something stands in a YAML file, for error messages: {@code file:line:column}. */
public record Position(String file, int line, int column) {
  @Override
  public String toString() {
    return file + ":" + line + ":" + column;
  }
}
