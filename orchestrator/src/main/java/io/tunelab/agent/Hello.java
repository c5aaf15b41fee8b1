package io.tunelab.agent;

/** The agent's greeting: its protocol version and its process id on the host. */
public record Hello(String version, long pid) {
  static Hello from(Answer answer) {
    String version = "";
    long pid = -1;
    for (String line : answer.lines()) {
      String[] kv = Answer.fields(line, 2);
      switch (kv[0]) {
        case "agent" -> version = kv[1];
        case "pid" -> pid = pid(answer, kv[1]);
        default -> {}
      }
    }
    return new Hello(version, pid);
  }

  private static long pid(Answer answer, String text) {
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw answer.malformed("pid " + text);
    }
  }
}
