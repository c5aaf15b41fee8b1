package io.tunelab.agent;

import java.util.ArrayList;
import java.util.List;

/** One answer of the host agent: its status and its lines, split on TAB. */
public record AgentResponse(String host, String verb, int status, List<String> lines) {

  /** True when the agent reported status 0. */
  public boolean ok() {
    return status == 0;
  }

  /** The lines whose first field is {@code kind}, each split into at most {@code fields} fields. */
  public List<String[]> rows(String kind, int fields) {
    List<String[]> rows = new ArrayList<>();
    for (String line : lines) {
      String[] parts = line.split("\t", fields);
      if (parts[0].equals(kind)) {
        rows.add(parts);
      }
    }
    return rows;
  }
}
