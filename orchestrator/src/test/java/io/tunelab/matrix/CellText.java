package io.tunelab.matrix;

import io.tunelab.plan.Cell;
import io.tunelab.plan.MatrixExpander;
import java.util.Map;
import java.util.stream.Collectors;

/** A stable text form of a loaded matrix and its cells, for golden files. */
final class CellText {
  private CellText() {}

  static String describe(Matrix m) {
    StringBuilder out = new StringBuilder();
    out.append("# name: ").append(m.name()).append('\n');
    if (m.description() != null) {
      out.append("# description: ").append(m.description()).append('\n');
    }
    out.append("# roles: ").append(map(m.roles())).append('\n');
    if (m.hostsFile() != null) {
      out.append("# hosts: ").append(m.hostsFile()).append('\n');
    }
    for (Step s : m.setup()) {
      out.append("# setup: ").append(step(s)).append('\n');
    }
    for (Step s : m.teardown()) {
      out.append("# teardown: ").append(step(s)).append('\n');
    }
    if (!m.settings().isEmpty()) {
      out.append("# settings: ").append(map(m.settings())).append('\n');
    }
    for (Axis a : m.axes()) {
      out.append("# axis ")
          .append(a.name())
          .append(" (")
          .append(a.kind())
          .append(", label ")
          .append(a.label())
          .append("): ")
          .append(String.join(", ", a.values()))
          .append('\n');
    }
    for (Map<String, String> x : m.exclude()) {
      out.append("# exclude: ").append(map(x)).append('\n');
    }
    for (Map<String, String> x : m.include()) {
      out.append("# include: ").append(map(x)).append('\n');
    }
    out.append("# repeat ")
        .append(m.repeat())
        .append(", warmup ")
        .append(m.warmup())
        .append(", order ")
        .append(m.order())
        .append(", seed ")
        .append(m.seed())
        .append(", before_trial ")
        .append(m.beforeTrial())
        .append('\n');
    out.append("# workload: ").append(workload(m.workload())).append('\n');
    for (Cell c : MatrixExpander.expand(m)) {
      out.append(c.ordinal())
          .append(" | ")
          .append(c.label())
          .append(" | knobs ")
          .append(map(c.knobs()))
          .append(" | vars ")
          .append(map(c.vars()))
          .append('\n');
    }
    return out.toString();
  }

  private static String step(Step s) {
    return s.on() + ": " + s.run() + (s.capture() == null ? "" : " -> ${" + s.capture() + "}");
  }

  private static String workload(Workload w) {
    if (w instanceof Workload.Dd dd) {
      return "dd on "
          + dd.on()
          + ": if="
          + dd.input()
          + " of="
          + dd.output()
          + " bs="
          + dd.bs()
          + (dd.count() != null ? " count=" + dd.count() : " total=" + dd.total())
          + " flags="
          + dd.flags()
          + " processes="
          + dd.processes();
    }
    Workload.Command c = (Workload.Command) w;
    return "command on "
        + c.on()
        + ": "
        + c.command()
        + " (parser "
        + c.parser()
        + ", processes "
        + c.processes()
        + ")";
  }

  private static String map(Map<String, String> map) {
    return map.entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(", ", "{", "}"));
  }
}
