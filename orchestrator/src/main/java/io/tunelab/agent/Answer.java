package io.tunelab.agent;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
      // Only the lines of this kind are split: an answer is asked for a dozen kinds.
      if (line.startsWith(kind)
          && (line.length() == kind.length() || line.charAt(kind.length()) == '\t')) {
        rows.add(fields(line, fields));
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

  /**
   * A workload's output line as the agent relays it decoded back to what was printed: {@code \\} is
   * a backslash, {@code \xHH} the control character HH (the agent escapes them so that a CR cannot
   * end a protocol line).
   */
  static String relayed(String escaped) {
    if (escaped.indexOf('\\') < 0) {
      return escaped;
    }
    StringBuilder out = new StringBuilder(escaped.length());
    for (int i = 0; i < escaped.length(); i++) {
      char c = escaped.charAt(i);
      if (c == '\\' && i + 1 < escaped.length() && escaped.charAt(i + 1) == '\\') {
        out.append('\\');
        i++;
      } else if (c == '\\' && i + 3 < escaped.length() && escaped.charAt(i + 1) == 'x') {
        out.append((char) Integer.parseInt(escaped.substring(i + 2, i + 4), 16));
        i += 3;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /** The rows of {@code kind} keyed by their second field, refusing a name that comes twice. */
  Map<String, String[]> uniqueRows(String kind, int fields) {
    Map<String, String[]> byName = new LinkedHashMap<>();
    for (String[] row : rows(kind, fields)) {
      if (byName.putIfAbsent(row[1], row) != null) {
        throw malformed("two '" + kind + "' rows for " + row[1]);
      }
    }
    return byName;
  }

  /** The agent answered something this client cannot read. */
  AgentException malformed(String what) {
    return new AgentException(host, "malformed answer to '" + verb + "': " + what);
  }
}
