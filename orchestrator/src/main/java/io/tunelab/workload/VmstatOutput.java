package io.tunelab.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code vmstat -n N}: a {@code procs … cpu} banner, a column header ({@code r b swpd free buff
 * cache si so bi bo in cs us sy id wa st}, newer procps add {@code gu}) and one row per interval.
 * The first row is the average since boot and is dropped; repeated headers (without {@code -n}) are
 * skipped.
 */
final class VmstatOutput {
  private VmstatOutput() {}

  static List<MonitorRow> rows(List<String> lines, double interval) {
    List<MonitorRow> rows = new ArrayList<>();
    String[] header = null;
    int index = -1; // the since-boot row gets index 0 and is dropped
    for (String line : lines) {
      String[] f = MonitorOutput.fields(line);
      if (f.length >= 2 && f[0].equals("r") && f[1].equals("b")) {
        header = f;
        continue;
      }
      if (header == null || f.length != header.length) {
        continue;
      }
      double[] values = new double[f.length];
      boolean numeric = true;
      for (int i = 0; i < f.length && numeric; i++) {
        Double v = MonitorOutput.number(f[i]);
        numeric = v != null;
        values[i] = numeric ? v : 0;
      }
      if (!numeric) {
        continue;
      }
      index++;
      if (index == 0) {
        continue;
      }
      for (int i = 0; i < f.length; i++) {
        String metric = MonitorOutput.metricName(header[i]);
        rows.add(new MonitorRow(index * interval, "", metric, values[i], unit(metric)));
      }
    }
    return rows;
  }

  /** vmstat's default units: KiB for memory, 1 KiB blocks for bi/bo, percent of CPU time. */
  private static String unit(String metric) {
    return switch (metric) {
      case "swpd", "free", "buff", "cache", "inact", "active" -> "KiB";
      case "si", "so" -> "KiB/s";
      case "bi", "bo" -> "blocks/s";
      case "in", "cs" -> "/s";
      case "us", "sy", "id", "wa", "st", "gu" -> "%";
      default -> "";
    };
  }
}
