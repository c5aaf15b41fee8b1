package io.tunelab.agent;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What one host starts for a trial: its processes, started together behind one barrier, and its
 * monitors.
 *
 * @param duration null, or when processes still running get SIGINT (then SIGKILL after the agent's
 *     grace period); counted on the host from the release
 * @param timeout when a process still running is killed and reported as timed out (exit 124)
 */
public record TrialRequest(
    List<TrialProcess> processes,
    List<TrialMonitor> monitors,
    Duration duration,
    Duration timeout) {

  public TrialRequest {
    processes = List.copyOf(processes);
    monitors = List.copyOf(monitors);
  }

  /** The payload of a {@code start} (or {@code run}) request. */
  List<String> payload() {
    List<String> lines = new ArrayList<>();
    lines.add("timeout\t" + seconds(timeout));
    if (duration != null) {
      lines.add("duration\t" + seconds(duration));
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
