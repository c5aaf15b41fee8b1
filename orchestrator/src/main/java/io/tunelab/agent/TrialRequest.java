package io.tunelab.agent;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What one host starts for a trial: its processes, started together behind one barrier, and its
 * monitors.
 *
 * @param duration null, or when processes still running get SIGINT (then SIGKILL after the stop
 *     grace); counted on the host from the release; a process's own duration wins
 * @param timeout when a process still running is killed and reported as timed out (exit 124); a
 *     process's own timeout wins
 * @param stopGrace null for the agent's own ({@code TUNELAB_STOP_GRACE}, else {@link
 *     AgentSession#STOP_GRACE}), or the time between SIGINT at a duration and SIGKILL
 * @param health whether the agent answers with the host's health figures taken when the trial
 *     arrives and when it has ended ({@link TrialReport#before()}, {@link TrialReport#after()})
 * @param checks knob paths the agent reads back when the trial has ended ({@link
 *     TrialReport#knobs()}); only with {@code health}
 */
public record TrialRequest(
    List<TrialProcess> processes,
    List<TrialMonitor> monitors,
    Duration duration,
    Duration timeout,
    Duration stopGrace,
    boolean health,
    List<String> checks) {

  public TrialRequest {
    processes = List.copyOf(processes);
    monitors = List.copyOf(monitors);
    checks = List.copyOf(checks);
  }

  /** A request without health snapshots. */
  public TrialRequest(
      List<TrialProcess> processes,
      List<TrialMonitor> monitors,
      Duration duration,
      Duration timeout,
      Duration stopGrace) {
    this(processes, monitors, duration, timeout, stopGrace, false, List.of());
  }

  /** The same request, answered with health snapshots and {@code checks} read back. */
  public TrialRequest withHealth(List<String> checks) {
    return new TrialRequest(processes, monitors, duration, timeout, stopGrace, true, checks);
  }

  /** A request with the agent's own stop grace. */
  public TrialRequest(
      List<TrialProcess> processes,
      List<TrialMonitor> monitors,
      Duration duration,
      Duration timeout) {
    this(processes, monitors, duration, timeout, null);
  }

  /**
   * How long the trial's processes and monitors may run on the host: the latest of each process's
   * timeout and its duration plus the stop grace (the agent's own counted as {@link
   * AgentSession#STOP_GRACE}).
   */
  Duration limit() {
    Duration grace = stopGrace != null ? stopGrace : AgentSession.STOP_GRACE;
    Duration longest = latest(timeout, duration == null ? null : duration.plus(grace));
    for (TrialProcess p : processes) {
      Duration d = p.duration() != null ? p.duration() : duration;
      longest =
          latest(
              latest(longest, p.timeout() != null ? p.timeout() : timeout),
              d == null ? null : d.plus(grace));
    }
    return longest;
  }

  private static Duration latest(Duration a, Duration b) {
    return b == null || a.compareTo(b) >= 0 ? a : b;
  }

  /** The payload of a {@code start} (or {@code run}) request. */
  List<String> payload() {
    List<String> lines = new ArrayList<>();
    if (health) {
      lines.add("health");
      checks.forEach(c -> lines.add("check\t" + c));
    }
    lines.add("timeout\t" + seconds(timeout));
    if (duration != null) {
      lines.add("duration\t" + seconds(duration));
    }
    if (stopGrace != null) {
      lines.add("stop_grace\t" + seconds(stopGrace));
    }
    for (TrialProcess p : processes) {
      lines.add("job\t" + p.name());
      p.argv().forEach(a -> lines.add("arg\t" + a));
      if (p.stdinText() != null) {
        String text = p.stdinText().endsWith("\n") ? p.stdinText() : p.stdinText() + "\n";
        text.lines().forEach(l -> lines.add("stdin\t" + l));
      }
      if (p.ionice() != null) {
        lines.add("ionice\t" + p.ionice());
      }
      if (p.nice() != null) {
        lines.add("nice\t" + p.nice());
      }
      if (p.cpus() != null) {
        lines.add("cpus\t" + p.cpus());
      }
      if (p.wholeStdout()) {
        lines.add("stdout\tall");
      }
      if (p.duration() != null) {
        lines.add("job_duration\t" + seconds(p.duration()));
      }
      if (p.timeout() != null) {
        lines.add("job_timeout\t" + seconds(p.timeout()));
      }
    }
    for (TrialMonitor m : monitors) {
      lines.add("monitor\t" + m.name());
      m.argv().forEach(a -> lines.add("arg\t" + a));
    }
    return lines;
  }

  /** Seconds as the agent reads them: digits with an optional fraction, e.g. {@code 0.5}. */
  static String seconds(Duration d) {
    return BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString();
  }
}
