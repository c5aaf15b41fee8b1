package io.tunelab.agent;

import java.util.ArrayList;
import java.util.List;

/** One answer of the agent as it came off the wire: its status and its lines, unprefixed. */
record Answer(String host, AgentVerb verb, int status, List<String> lines) {

  Answer {
    lines = List.copyOf(lines);
  }

  boolean ok() {
    return status == 0;
  }

  /**
   * The lines whose first field is {@code kind}, each split on TAB into exactly {@code fields}
   * fields: the last runs to the end of the line, missing ones are empty.
   */
  List<String[]> rows(String kind, int fields) {
    List<String[]> rows = new ArrayList<>();
    for (String line : lines) {
      String[] row = fields(line, fields);
      if (row[0].equals(kind)) {
        rows.add(row);
      }
    }
    return rows;
  }

  /** {@code line} split on TAB into exactly {@code count} fields. */
  static String[] fields(String line, int count) {
    String[] parts = line.split("\t", count);
    if (parts.length == count) {
      return parts;
    }
    String[] padded = new String[count];
    for (int i = 0; i < count; i++) {
      padded[i] = i < parts.length ? parts[i] : "";
    }
    return padded;
  }

  /** The agent answered something this client cannot read. */
  AgentException malformed(String what) {
    return new AgentException(host, "malformed answer to '" + verb + "': " + what);
  }
}
