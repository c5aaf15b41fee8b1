package io.tunelab.yaml;

/**
 * One thing wrong with a YAML file, printed as {@code FILE:LINE:COL: KEY: message}.
 *
 * @param key where in the document, e.g. {@code workload.dd.bs} or {@code hosts.srv1.port}
 */
public record Problem(Position position, String key, String message) {
  @Override
  public String toString() {
    return position + ": " + key + ": " + message;
  }

  /** The text with line breaks and tabs shown as {@code \n}, so a message stays on one line. */
  public static String printable(String text) {
    return text.replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t");
  }
}
