package io.tunelab.agent;

import io.tunelab.knob.ApplyLine;
import java.util.List;

/** The payload of an {@code apply} request: one TAB-separated line per {@link ApplyLine}. */
public final class ApplyPayload {
  private ApplyPayload() {}

  /** The lines in order, e.g. {@code set\t/sys/block/sdb/queue/scheduler\tbfq}. */
  public static List<String> of(List<ApplyLine> lines) {
    return lines.stream().map(ApplyPayload::line).toList();
  }

  static String line(ApplyLine line) {
    return switch (line.op()) {
      case SAVE -> "save\t" + line.path();
      case SAVEPAIR -> "savepair\t" + line.path() + "\t" + line.partner().path();
      case SET -> "set\t" + line.path() + "\t" + line.value();
      case CHECK -> "check\t" + line.path();
    };
  }
}
