package io.tunelab.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * iostat's extended columns per device over a whole trial from {@code /proc/diskstats} at its start
 * and stop, computed as sysstat 12 computes them for one interval: rates per second of the time
 * between the two reads; {@code r_await} the read ticks per read completed, {@code rareq-sz} the kB
 * per read, {@code %rrqm} the share of merged reads, and so on for writes, discards and flushes;
 * {@code aqu-sz} the weighted ticks per millisecond, {@code %util} the busy ticks per millisecond
 * (at most 100). A device gets the columns its line has fields for (discards since Linux 4.18,
 * flushes since 5.5).
 */
final class DiskCounters {
  // The fields after major, minor and name (Documentation/admin-guide/iostats.rst).
  private static final int RD_IOS = 0;
  private static final int RD_MERGES = 1;
  private static final int RD_SECTORS = 2;
  private static final int RD_TICKS = 3;
  private static final int WR_IOS = 4;
  private static final int IN_FLIGHT = 8;
  private static final int TOT_TICKS = 9;
  private static final int RQ_TICKS = 10;
  private static final int DC_IOS = 11;
  private static final int DC_TICKS = 14;
  private static final int FL_IOS = 15;
  private static final int FL_TICKS = 16;

  private DiskCounters() {}

  /**
   * The trial-wide figures (rows 0) of the devices in both reads: those of {@code devices} (a
   * {@code /dev/} prefix ignored), or without devices every one that did any I/O since boot, as
   * iostat shows them.
   */
  static List<MonitorMean> figures(MonitorCounters counters, List<String> devices) {
    List<MonitorMean> figures = new ArrayList<>();
    if (counters.seconds() <= 0) {
      return figures;
    }
    List<String> named =
        devices.stream().map(d -> d.startsWith("/dev/") ? d.substring(5) : d).toList();
    Map<String, long[]> begin = read(counters.begin());
    Map<String, long[]> end = read(counters.end());
    for (Map.Entry<String, long[]> e : end.entrySet()) {
      long[] b = begin.get(e.getKey());
      long[] now = e.getValue();
      if (b == null || b.length != now.length) {
        continue;
      }
      if (named.isEmpty() ? !everUsed(now) : !named.contains(e.getKey())) {
        continue;
      }
      long[] d = new long[now.length];
      boolean wrapped = false;
      for (int i = 0; i < d.length; i++) {
        d[i] = now[i] - b[i];
        wrapped |= d[i] < 0 && i != IN_FLIGHT; // a gauge, not a counter
      }
      if (!wrapped) {
        device(figures, e.getKey(), d, counters.seconds());
      }
    }
    return figures;
  }

  private static boolean everUsed(long[] f) {
    return f[RD_IOS]
            + f[WR_IOS]
            + (f.length > DC_IOS ? f[DC_IOS] : 0)
            + (f.length > FL_IOS ? f[FL_IOS] : 0)
        > 0;
  }

  private static void device(List<MonitorMean> out, String dev, long[] d, double seconds) {
    direction(out, dev, "r", d, RD_IOS, seconds);
    direction(out, dev, "w", d, WR_IOS, seconds);
    if (d.length > DC_TICKS) {
      direction(out, dev, "d", d, DC_IOS, seconds);
    }
    if (d.length > FL_TICKS) {
      add(out, dev, "f/s", d[FL_IOS] / seconds);
      add(out, dev, "f_await", per(d[FL_TICKS], d[FL_IOS]));
    }
    double ms = seconds * 1000;
    add(out, dev, "aqu-sz", d[RQ_TICKS] / ms);
    add(out, dev, "%util", Math.min(100, 100 * d[TOT_TICKS] / ms));
  }

  /**
   * The six columns of reads ({@code x} r), writes (w) or discards (d), whose fields start at
   * {@code first}.
   */
  private static void direction(
      List<MonitorMean> out, String dev, String x, long[] d, int first, double seconds) {
    long ios = d[first + RD_IOS];
    long merges = d[first + RD_MERGES];
    long sectors = d[first + RD_SECTORS];
    long ticks = d[first + RD_TICKS];
    add(out, dev, x + "/s", ios / seconds);
    add(out, dev, x + "kB/s", sectors / 2.0 / seconds);
    add(out, dev, x + "rqm/s", merges / seconds);
    add(out, dev, "%" + x + "rqm", 100 * per(merges, merges + ios));
    add(out, dev, x + "_await", per(ticks, ios));
    add(out, dev, x + "areq-sz", per(sectors, ios) / 2);
  }

  private static double per(long what, long count) {
    return count == 0 ? 0 : (double) what / count;
  }

  private static void add(List<MonitorMean> out, String dev, String column, double value) {
    out.add(
        new MonitorMean(
            dev, MonitorOutput.metricName(column), value, IostatOutput.unit(column), 0));
  }

  /** Device name to its counters, of the lines with at least the eleven fields of Linux 2.6. */
  private static Map<String, long[]> read(List<String> lines) {
    Map<String, long[]> devices = new LinkedHashMap<>();
    for (String line : lines) {
      String[] f = MonitorOutput.fields(line);
      if (f.length < 3 + RQ_TICKS + 1) {
        continue;
      }
      long[] counters = new long[Math.min(f.length - 3, FL_TICKS + 1)];
      boolean numeric = true;
      for (int i = 0; i < counters.length && numeric; i++) {
        numeric = f[i + 3].matches("[0-9]{1,19}");
        counters[i] = numeric ? Long.parseLong(f[i + 3]) : 0;
      }
      if (numeric) {
        devices.put(f[2], counters);
      }
    }
    return devices;
  }
}
