package io.tunelab.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * vmstat's and mpstat's CPU columns over a whole trial from the {@code cpu} line of {@code
 * /proc/stat} at its start and stop: each as a percentage of the CPU time that passed.
 *
 * <p>The line's ticks are user, nice, system, idle, iowait, irq, softirq, steal, guest and
 * guest_nice (older kernels stop earlier); the kernel counts guest time in user (and guest_nice in
 * nice) too, so the time that passed is the sum of the first eight. vmstat's {@code us} is user +
 * nice, {@code sy} system + irq + softirq, {@code id} idle, {@code wa} iowait, {@code st} steal, as
 * procps computes them; mpstat's {@code usr_pct} and {@code nice_pct} leave the guest's share out,
 * as sysstat does.
 */
final class CpuCounters {
  private static final int USER = 0;
  private static final int NICE = 1;
  private static final int SYSTEM = 2;
  private static final int IDLE = 3;
  private static final int IOWAIT = 4;
  private static final int IRQ = 5;
  private static final int SOFTIRQ = 6;
  private static final int STEAL = 7;
  private static final int GUEST = 8;
  private static final int GUEST_NICE = 9;

  private CpuCounters() {}

  /**
   * {@code tool}'s trial-wide CPU figures (rows 0), or none when a read is missing or no time
   * passed.
   */
  static List<MonitorMean> figures(String tool, MonitorCounters counters) {
    long[] d = delta(counters);
    if (d == null) {
      return List.of();
    }
    List<MonitorMean> figures = new ArrayList<>();
    double total = 0;
    for (int i = 0; i < Math.min(d.length, GUEST); i++) {
      total += d[i];
    }
    if (total <= 0) {
      return List.of();
    }
    if (tool.equals("vmstat")) {
      add(figures, "us", d[USER] + d[NICE], total);
      add(figures, "sy", d[SYSTEM] + at(d, IRQ) + at(d, SOFTIRQ), total);
      add(figures, "id", d[IDLE], total);
      if (d.length > IOWAIT) {
        add(figures, "wa", d[IOWAIT], total);
      }
      if (d.length > STEAL) {
        add(figures, "st", d[STEAL], total);
      }
    } else if (tool.equals("mpstat")) {
      add(figures, "usr_pct", Math.max(0, d[USER] - at(d, GUEST)), total);
      add(figures, "nice_pct", Math.max(0, d[NICE] - at(d, GUEST_NICE)), total);
      add(figures, "sys_pct", d[SYSTEM], total);
      String[] names = {"iowait_pct", "irq_pct", "soft_pct", "steal_pct", "guest_pct", "gnice_pct"};
      for (int i = IOWAIT; i < d.length && i <= GUEST_NICE; i++) {
        add(figures, names[i - IOWAIT], d[i], total);
      }
      add(figures, "idle_pct", d[IDLE], total);
    }
    return figures;
  }

  private static void add(List<MonitorMean> figures, String metric, double ticks, double total) {
    figures.add(new MonitorMean("", metric, 100 * ticks / total, "%", 0));
  }

  private static long at(long[] d, int i) {
    return i < d.length ? d[i] : 0;
  }

  /** End minus begin per field of the two {@code cpu} lines; null when either is unusable. */
  private static long[] delta(MonitorCounters counters) {
    long[] begin = cpuLine(counters.begin());
    long[] end = cpuLine(counters.end());
    if (begin == null || end == null || begin.length != end.length) {
      return null;
    }
    long[] d = new long[begin.length];
    for (int i = 0; i < d.length; i++) {
      d[i] = end[i] - begin[i];
      if (d[i] < 0) {
        return null;
      }
    }
    return d;
  }

  private static long[] cpuLine(List<String> lines) {
    for (String line : lines) {
      String[] f = MonitorOutput.fields(line);
      if (f.length >= 1 + IDLE + 1 && f[0].equals("cpu")) {
        long[] ticks = new long[Math.min(f.length - 1, GUEST_NICE + 1)];
        for (int i = 0; i < ticks.length; i++) {
          if (!f[i + 1].matches("[0-9]{1,19}")) {
            return null;
          }
          ticks[i] = Long.parseLong(f[i + 1]);
        }
        return ticks;
      }
    }
    return null;
  }
}
