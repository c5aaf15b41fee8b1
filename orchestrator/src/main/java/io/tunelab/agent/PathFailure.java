package io.tunelab.agent;

/** A file the agent could not save, write or restore, with the shell's error text. */
public record PathFailure(String path, String message) {
  @Override
  public String toString() {
    return path + ": " + message;
  }
}
