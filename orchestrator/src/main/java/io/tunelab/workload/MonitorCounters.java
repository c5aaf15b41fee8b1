package io.tunelab.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * The kernel's counters a monitor's agent read when the monitor started and when the trial stopped,
 * as it relays them ({@code stat} rows): a {@code begin<TAB>NS} line, the counter lines, an {@code
 * end<TAB>NS} line and the same counter lines again. The counter lines are the {@code cpu} line of
 * {@code /proc/stat} (vmstat, mpstat) or lines of {@code /proc/diskstats} (iostat).
 *
 * @param seconds the time between the two reads
 */
public record MonitorCounters(double seconds, List<String> begin, List<String> end) {
  public MonitorCounters {
    begin = List.copyOf(begin);
    end = List.copyOf(end);
  }

  /** The two reads in {@code lines}; null unless both are there with their times in order. */
  public static MonitorCounters parse(List<String> lines) {
    Long beginNs = null;
    Long endNs = null;
    List<String> begin = new ArrayList<>();
    List<String> end = new ArrayList<>();
    List<String> current = null;
    for (String line : lines) {
      if (line.startsWith("begin\t") && beginNs == null) {
        beginNs = nanos(line);
        current = begin;
      } else if (line.startsWith("end\t") && beginNs != null && endNs == null) {
        endNs = nanos(line);
        current = end;
      } else if (current != null) {
        current.add(line);
      }
    }
    if (beginNs == null || endNs == null || beginNs < 0 || endNs <= beginNs) {
      return null;
    }
    return new MonitorCounters((endNs - beginNs) / 1e9, begin, end);
  }

  private static long nanos(String line) {
    String ns = line.substring(line.indexOf('\t') + 1).strip();
    return ns.matches("[0-9]{1,19}") ? Long.parseLong(ns) : -1;
  }
}
