package io.tunelab.matrix;

import io.tunelab.plan.Cell;
import io.tunelab.plan.MatrixExpander;
import java.util.List;
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
    if (!m.params().isEmpty()) {
      out.append("# params: ").append(map(m.params())).append('\n');
    }
    if (!m.overrides().isEmpty()) {
      out.append("# set: ").append(map(m.overrides())).append('\n');
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
    for (Step s : m.cellSetup()) {
      out.append("# cell_setup: ").append(step(s)).append('\n');
    }
    for (Step s : m.cellTeardown()) {
      out.append("# cell_teardown: ").append(step(s)).append('\n');
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
        .append(
            m.repeatRule().adaptive()
                ? m.repeatRule().min()
                    + " to "
                    + m.repeatRule().max()
                    + " until ±"
                    + RepeatRule.percent(m.repeatRule().target())
                    + " of "
                    + m.repeatRule().metric()
                    + (m.repeatRule().compares()
                        ? " per ratio over " + m.repeatRule().compare()
                        : "")
                : m.repeat())
        .append(", warmup ")
        .append(m.warmup())
        .append(", order ")
        .append(m.order())
        .append(", seed ")
        .append(m.seed())
        .append(", before_trial ")
        .append(trialSteps(m.beforeTrial()))
        .append('\n');
    if (!m.recovery().equals(Recovery.DEFAULT)) {
      out.append("# retries ")
          .append(m.recovery().retries())
          .append(", reconnect ")
          .append(Durations.format(m.recovery().reconnect()))
          .append('\n');
    }
    if (m.onFlag() != OnFlag.KEEP) {
      out.append("# on_flag ").append(m.onFlag().text()).append('\n');
    }
    if (m.cacheFlag() != Matrix.DEFAULT_CACHE_FLAG) {
      out.append("# cache_flag ").append(m.cacheFlag()).append('\n');
    }
    if (m.search() != null) {
      out.append("# search ")
          .append(m.search().objective())
          .append(", budget ")
          .append(m.search().budget())
          .append(", confirm ")
          .append(m.search().confirm())
          .append(m.search().levels().isEmpty() ? "" : ", levels " + m.search().levels())
          .append('\n');
    }
    if (m.noise() != Noise.WARN) {
      out.append("# noise ").append(m.noise().text()).append('\n');
    }
    if (!m.afterTrial().isEmpty()) {
      out.append("# after_trial ").append(trialSteps(m.afterTrial())).append('\n');
    }
    for (Monitor mon : m.monitors()) {
      out.append("# monitor: ")
          .append(mon.tool())
          .append(" on ")
          .append(mon.roles())
          .append(" every ")
          .append(Durations.format(mon.interval()))
          .append(mon.devices().isEmpty() ? "" : " devices " + mon.devices())
          .append('\n');
    }
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
    return s.on()
        + ": "
        + s.run()
        + (s.capture() == null ? "" : " -> ${" + s.capture() + (s.captureList() ? "[]}" : "}"));
  }

  private static String trialSteps(List<TrialStep> steps) {
    return steps.stream()
        .map(t -> t.kind() == TrialStep.Kind.COMMAND ? step(t.command()) : t.text())
        .toList()
        .toString();
  }

  /** A workload of one job with one process on one line; anything else one line per job. */
  private static String workload(Workload w) {
    Workload.Job only = w.jobs().get(0);
    boolean plain =
        w.jobs().size() == 1
            && only.key().equals("workload")
            && w.duration() == null
            && w.timeout() == null
            && w.stopGrace() == null
            && only.ionice() == null
            && only.nice() == null
            && only.cpus() == null
            && !(only.work() instanceof Workload.Fio)
            && !(only.work() instanceof Workload.Command c && c.bytes() != null);
    if (plain) {
      return legacy(only);
    }
    StringBuilder out = new StringBuilder();
    out.append(w.jobs().size()).append(w.jobs().size() == 1 ? " job" : " jobs");
    if (w.duration() != null) {
      out.append(", duration ").append(w.duration());
    }
    if (w.timeout() != null) {
      out.append(", timeout ").append(w.timeout());
    }
    if (w.stopGrace() != null) {
      out.append(", stop_grace ").append(w.stopGrace());
    }
    for (Workload.Job j : w.jobs()) {
      out.append("\n# job ")
          .append(j.name())
          .append(" on ")
          .append(j.on())
          .append(" (processes ")
          .append(j.processes());
      if (j.ionice() != null) {
        out.append(", ionice ").append(j.ionice());
      }
      if (j.nice() != null) {
        out.append(", nice ").append(j.nice());
      }
      if (j.cpus() != null) {
        out.append(", cpus ").append(j.cpus());
      }
      if (j.duration() != null) {
        out.append(", duration ").append(j.duration());
      }
      if (j.timeout() != null) {
        out.append(", timeout ").append(j.timeout());
      }
      out.append("): ").append(work(j.work()));
    }
    return out.toString();
  }

  private static String work(Workload.Work work) {
    if (work instanceof Workload.Dd dd) {
      return "dd if="
          + dd.input()
          + " of="
          + dd.output()
          + " bs="
          + dd.bs()
          + (dd.count() != null ? " count=" + dd.count() : " total=" + dd.total())
          + " flags="
          + dd.flags();
    }
    if (work instanceof Workload.Fio fio) {
      if (fio.jobfile() != null) {
        return "fio jobfile " + fio.jobfile() + ": " + fio.jobfileText().replace("\n", "\\n");
      }
      StringBuilder out = new StringBuilder("fio");
      fio.options().forEach((k, v) -> out.append(" --").append(k).append(v == null ? "" : "=" + v));
      return out.toString();
    }
    Workload.Command c = (Workload.Command) work;
    return "command: "
        + c.command()
        + " (parser "
        + c.parser()
        + (c.bytes() == null ? "" : ", bytes " + c.bytes())
        + ")";
  }

  private static String legacy(Workload.Job job) {
    if (job.work() instanceof Workload.Dd dd) {
      return "dd on "
          + job.on()
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
          + job.processes();
    }
    Workload.Command c = (Workload.Command) job.work();
    return "command on "
        + job.on()
        + ": "
        + c.command()
        + " (parser "
        + c.parser()
        + ", processes "
        + job.processes()
        + ")";
  }

  private static String map(Map<String, String> map) {
    return map.entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(", ", "{", "}"));
  }
}
