package io.tunelab.agent;

import io.tunelab.knob.ReadResult;
import java.util.LinkedHashMap;
import java.util.Map;

/** The knobs a trial's after-snapshot read back ({@code knob} rows of docs/agent.md, "health"). */
final class KnobReadBack {
  private KnobReadBack() {}

  /**
   * Each path read back to its value ({@link ReadResult.State#RW}, lines joined by blanks), or to
   * {@link ReadResult#missing()} when it is gone or was refused.
   */
  static Map<String, ReadResult> of(Answer answer) {
    Map<String, ReadResult> read = new LinkedHashMap<>();
    for (String[] row : answer.rows("knob", 4)) {
      switch (row[1]) {
        case "ok" -> read.put(row[2], new ReadResult(ReadResult.State.RW, row[3]));
        case "missing", "fail" -> read.put(row[2], ReadResult.missing());
        default -> throw answer.malformed("unknown knob state '" + row[1] + "'");
      }
    }
    return read;
  }
}
