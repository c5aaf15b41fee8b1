package io.tunelab.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code mpstat N}: a {@code Linux …} banner, a header {@code TIME CPU %usr %nice %sys %iowait %irq
 * %soft %steal %guest %gnice %idle} and per interval one row per CPU; only the {@code all} row is
 * kept. The time takes one field ({@code 22:18:21}, LC_ALL=C) or two ({@code 10:18:21 PM} in
 * 12-hour locales), so rows are read from the right. The {@code Average:} rows mpstat prints when
 * stopped are skipped.
 */
final class MpstatOutput {
  private MpstatOutput() {}

  static List<MonitorRow> rows(List<String> lines, double interval) {
    List<MonitorRow> rows = new ArrayList<>();
    List<String> columns = null;
    int index = 0;
    for (String line : lines) {
      String[] f = MonitorOutput.fields(line);
      int cpu = List.of(f).indexOf("CPU");
      if (cpu >= 0 && cpu + 1 < f.length && f[cpu + 1].startsWith("%")) {
        columns = List.of(f).subList(cpu + 1, f.length);
        continue;
      }
      if (columns == null || f.length < columns.size() + 2 || f[0].startsWith("Average")) {
        continue;
      }
      int first = f.length - columns.size();
      if (!f[first - 1].equals("all")) {
        continue;
      }
      List<MonitorRow> row = new ArrayList<>();
      for (int i = 0; i < columns.size(); i++) {
        Double v = MonitorOutput.number(f[first + i]);
        if (v == null) {
          row = null;
          break;
        }
        row.add(
            new MonitorRow(
                (index + 1) * interval, "", MonitorOutput.metricName(columns.get(i)), v, "%"));
      }
      if (row != null) {
        index++;
        rows.addAll(row);
      }
    }
    return rows;
  }
}
