package io.tunelab.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code iostat -dxky N}: a {@code Linux …} banner, then per interval a {@code Device r/s rkB/s …
 * %util} header and one row per device. The header gives the columns (sysstat 12 has 21, older ones
 * fewer); every header starts the next interval. Lines that are no device row of that header (the
 * timestamps of {@code -t}, blank lines) are skipped.
 */
final class IostatOutput {
  private IostatOutput() {}

  static List<MonitorRow> rows(List<String> lines, double interval) {
    List<MonitorRow> rows = new ArrayList<>();
    String[] header = null;
    int index = 0;
    for (String line : lines) {
      String[] f = MonitorOutput.fields(line);
      if (f.length > 1 && f[0].startsWith("Device")) {
        header = f;
        index++;
        continue;
      }
      if (header == null || f.length != header.length) {
        continue;
      }
      List<MonitorRow> row = new ArrayList<>();
      for (int i = 1; i < f.length; i++) {
        Double v = MonitorOutput.number(f[i]);
        if (v == null) {
          row = null;
          break;
        }
        String metric = MonitorOutput.metricName(header[i]);
        row.add(new MonitorRow(index * interval, f[0], metric, v, unit(header[i])));
      }
      if (row != null) {
        rows.addAll(row);
      }
    }
    return rows;
  }

  /** With {@code -k}: kB for sizes, ms for waits. */
  static String unit(String column) {
    if (column.startsWith("%")) {
      return "%";
    } else if (column.endsWith("kB/s")) {
      return "kB/s";
    } else if (column.endsWith("/s")) {
      return "/s";
    } else if (column.endsWith("await")) {
      return "ms";
    } else if (column.endsWith("areq-sz")) {
      return "kB";
    }
    return "";
  }
}
