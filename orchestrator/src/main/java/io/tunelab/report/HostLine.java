package io.tunelab.report;

import io.tunelab.store.ReportData;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a shared report says of a host beyond its kernel: {@code 4 CPUs (Intel(R) Xeon(R) Gold
 * 6230), 15.6 GiB, cpufreq governor performance}; null when nothing more was recorded.
 */
final class HostLine {
  private HostLine() {}

  static String of(ReportData.Host h) {
    List<String> parts = new ArrayList<>();
    if (h.cpus() != null) {
      String cpus = h.cpus() + (h.cpus() == 1 ? " CPU" : " CPUs");
      parts.add(h.cpuModel() == null ? cpus : cpus + " (" + h.cpuModel() + ")");
    } else if (h.cpuModel() != null) {
      parts.add(h.cpuModel());
    }
    if (h.memKb() != null) {
      parts.add(String.format(Locale.ROOT, "%.1f GiB", h.memKb() / 1048576.0));
    }
    if (h.cpufreqGovernor() != null) {
      parts.add("cpufreq governor " + h.cpufreqGovernor());
    }
    return parts.isEmpty() ? null : String.join(", ", parts);
  }
}
