package io.tunelab.matrix;

import io.tunelab.yaml.Position;
import io.tunelab.yaml.YamlNode;
import java.math.BigDecimal;
import java.time.Duration;

/**
 * A workload's time limits, and the rule that joins them: a job stopped at its duration has the
 * stop grace to end, so its timeout (its own or the workload's) must be longer than its duration
 * (its own or the workload's) plus the grace. Limits written as a {@code ${variable}} are checked
 * when the trial runs.
 */
final class TimeLimits {
  private final NodeReader in;
  private final YamlNode.Mapping workload;
  private final String duration;
  private final String timeout;
  private final String grace;

  /**
   * @param duration the workload's, or null
   * @param timeout the workload's, or null
   * @param grace the workload's {@code stop_grace}, or null for {@link Workload#STOP_GRACE}
   */
  TimeLimits(
      NodeReader in, YamlNode.Mapping workload, String duration, String timeout, String grace) {
    this.in = in;
    this.workload = workload;
    this.duration = duration;
    this.timeout = timeout;
    this.grace = grace;
  }

  String duration() {
    return duration;
  }

  String timeout() {
    return timeout;
  }

  String grace() {
    return grace;
  }

  /** Checks the workload's own duration and timeout, which its jobs without their own run with. */
  void checkWorkload() {
    if (duration != null && timeout != null) {
      check(
          workload.get("timeout").position(),
          "workload.timeout",
          duration,
          "",
          timeout,
          "",
          "a job",
          "every trial would fail before its jobs are stopped",
          "it");
    }
  }

  /**
   * Checks a job that has its own duration or timeout, with the workload's for the other; reported
   * at the job's own timeout, else at its own duration.
   */
  void checkJob(Workload.Job job, YamlNode.Mapping map) {
    String d = job.duration() != null ? job.duration() : duration;
    String t = job.timeout() != null ? job.timeout() : timeout;
    if (job.duration() == null && job.timeout() == null || d == null || t == null) {
      return;
    }
    boolean atTimeout = job.timeout() != null;
    String field = atTimeout ? "timeout" : "duration";
    check(
        map.get(field).position(),
        job.key() + "." + field,
        d,
        job.duration() != null ? "" : " (workload.duration)",
        t,
        atTimeout ? "" : " (workload.timeout)",
        "job " + job.name(),
        "job " + job.name() + " would fail every trial before it is stopped",
        atTimeout ? "it" : "the timeout");
  }

  private void check(
      Position at,
      String key,
      String d,
      String dFrom,
      String t,
      String tFrom,
      String who,
      String failsEveryTrial,
      String fix) {
    if (d.contains("$") || t.contains("$")) {
      return;
    }
    Duration dd = Durations.parse(d);
    Duration tt = Durations.parse(t);
    if (tt.compareTo(dd) <= 0) {
      in.problem(
          at,
          key,
          "timeout "
              + t
              + tFrom
              + " is not longer than duration "
              + d
              + dFrom
              + ": "
              + failsEveryTrial);
      return;
    }
    if (grace != null && grace.contains("$")) {
      return;
    }
    Duration g = grace == null ? Workload.STOP_GRACE : Durations.parse(grace);
    if (tt.compareTo(dd.plus(g)) <= 0) {
      in.problem(
          at,
          key,
          "timeout "
              + t
              + tFrom
              + " ends inside the "
              + seconds(g)
              + " s stop grace"
              + (grace == null ? "" : " (workload.stop_grace)")
              + " after duration "
              + d
              + dFrom
              + ": "
              + who
              + " stopped at "
              + d
              + " would be killed before it could report; make "
              + fix
              + " longer than "
              + Durations.format(dd.plus(g)));
    }
  }

  private static String seconds(Duration d) {
    return BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString();
  }
}
