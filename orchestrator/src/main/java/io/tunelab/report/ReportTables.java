package io.tunelab.report;

import io.tunelab.matrix.Sizes;
import io.tunelab.report.Table.Absent;
import io.tunelab.report.Table.Block;
import io.tunelab.report.Table.Column;
import io.tunelab.report.Table.Measure;
import io.tunelab.report.Table.Text;
import io.tunelab.report.Table.Value;
import io.tunelab.store.ReportData;
import io.tunelab.store.ReportData.Cell;
import io.tunelab.store.ReportData.Stat;
import io.tunelab.store.ReportData.Trial;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The three shapes of a report table with their legends: classic (times, MiB/s, std, IOPS), one
 * metric per repetition, and a pivot of means with one column per value of an axis.
 */
final class ReportTables {
  private final ReportData data;
  private final AxisNames axes;
  private final Layout layout;
  private final String metric;
  private final int reps;
  private final CellGrid grid;

  ReportTables(ReportData data, AxisNames axes, Layout layout, String metric) {
    this.data = data;
    this.axes = axes;
    this.layout = layout;
    this.metric = metric;
    this.grid = new CellGrid(data.cells(), axes, layout);
    int most = 0;
    for (Cell cell : data.cells()) {
      most = Math.max(most, cell.measured().size());
    }
    this.reps = most;
  }

  // Times, then MiB/s, std and IOPS when recorded (dd), else the mean and std of the time.
  Table classic() {
    boolean throughput = hasStat("mib_per_s");
    boolean iops = hasStat("iops");
    List<Column> columns = grid.rowColumns();
    for (int r = 1; r <= reps; r++) {
      columns.add(new Column("t" + r, true));
    }
    columns.add(new Column(throughput ? "MiB/s" : "mean(s)", true));
    columns.add(new Column(throughput ? "std" : "std(s)", true));
    if (iops) {
      columns.add(new Column("IOPS", true));
    }
    return grid.table(
        columns,
        (cell, row) -> {
          addRepetitions(cell, row, "seconds");
          Stat main = cell.stats().get(throughput ? "mib_per_s" : "seconds");
          row.add(main == null ? new Absent("-") : new Table.Number(main.mean()));
          row.add(main == null ? new Absent("-") : new Table.Number(main.stddevPop()));
          if (iops) {
            Stat s = cell.stats().get("iops");
            row.add(s == null ? new Absent("-") : new Table.Number(s.mean()));
          }
        });
  }

  String classicLegend() {
    boolean throughput = hasStat("mib_per_s");
    boolean iops = hasStat("iops");
    StringBuilder text = new StringBuilder();
    if (reps > 0) {
      text.append(reps == 1 ? "t1" : "t1..t" + reps).append(": seconds per repetition; ");
    }
    if (throughput) {
      text.append(iops ? "MiB/s, IOPS: means" : "MiB/s: mean")
          .append("; std: population standard deviation of MiB/s");
      if (iops && largeBlocks()) {
        text.append("; IOPS = MiB/s at bs=1M (MiB/s divided by bs in MiB)");
      }
    } else {
      text.append("mean(s), std(s): mean and population standard deviation of the time");
    }
    return text.append(warmupNote()).toString();
  }

  // The chosen metric per repetition, then its mean and std.
  Table perRepetition() {
    List<Column> columns = grid.rowColumns();
    for (int r = 1; r <= reps; r++) {
      columns.add(new Column("r" + r, true));
    }
    columns.add(new Column("mean", true));
    columns.add(new Column("std", true));
    return grid.table(
        columns,
        (cell, row) -> {
          addRepetitions(cell, row, metric);
          Stat s = metric == null ? null : cell.stats().get(metric);
          row.add(s == null ? new Absent("-") : new Table.Number(s.mean()));
          row.add(s == null ? new Absent("-") : new Table.Number(s.stddevPop()));
        });
  }

  String metricLegend() {
    String what = metric + unitSuffix();
    String head =
        reps == 0
            ? what + ": "
            : (reps == 1 ? "r1" : "r1..r" + reps) + ": " + what + " per repetition; ";
    return head + "mean, std: mean and population standard deviation" + warmupNote();
  }

  // One column per value of the column axis: the mean of the metric with its spread.
  Table pivot() {
    String axis = layout.columns();
    List<String> values = grid.distinct(axis);
    List<Column> columns = grid.rowColumns();
    for (String v : values) {
      columns.add(new Column(axes.shown(axis) + "=" + v, true));
    }
    Map<String, Map<String, Cell>> byRow = new LinkedHashMap<>();
    Map<String, Cell> first = new LinkedHashMap<>();
    for (Cell cell : data.cells()) {
      String key =
          CellGrid.key(cell, layout.blocks()) + "\u0000" + CellGrid.key(cell, layout.rows());
      byRow.computeIfAbsent(key, k -> new LinkedHashMap<>()).put(CellGrid.value(cell, axis), cell);
      first.putIfAbsent(key, cell);
    }
    Map<String, Block> blocks = new LinkedHashMap<>();
    for (Map.Entry<String, Cell> row : first.entrySet()) {
      Cell cell = row.getValue();
      List<Value> entries = grid.rowValues(cell);
      for (String v : values) {
        Cell at = byRow.get(row.getKey()).get(v);
        Stat s = at == null || metric == null ? null : at.stats().get(metric);
        entries.add(s == null ? new Absent("-") : new Measure(s.mean(), s.stddevPop()));
      }
      grid.block(blocks, cell).rows().add(entries);
    }
    return new Table(grid.blockColumns(), columns, List.copyOf(blocks.values()));
  }

  String pivotLegend() {
    return "columns: "
        + axes.shown(layout.columns())
        + "; entries: mean "
        + metric
        + unitSuffix()
        + " ±population standard deviation in % of the mean"
        + warmupNote();
  }

  // Each job's metrics under the job's name: the mean with its spread, as in a pivot.
  Table sideBySide(List<Report.JobMetric> shown, boolean underJobs) {
    List<Column> columns = grid.rowColumns();
    List<Map<Integer, Cell>> byOrdinal = new ArrayList<>();
    for (Report.JobMetric m : shown) {
      columns.add(new Column(heading(m.metric()), true, underJobs ? m.job() : null));
      Map<Integer, Cell> cells = new HashMap<>();
      for (Cell c : m.data().cells()) {
        cells.put(c.ordinal(), c);
      }
      byOrdinal.add(cells);
    }
    return grid.table(
        columns,
        (cell, row) -> {
          for (int i = 0; i < shown.size(); i++) {
            Cell at = byOrdinal.get(i).get(cell.ordinal());
            Stat s = at == null ? null : at.stats().get(shown.get(i).metric());
            row.add(s == null ? new Absent("-") : new Measure(s.mean(), s.stddevPop()));
          }
        });
  }

  String sideBySideLegend(List<Report.JobMetric> shown) {
    // MiB/s and IOPS say their unit; the others get theirs, metrics of one unit together.
    Map<String, Set<String>> byUnit = new LinkedHashMap<>();
    for (Report.JobMetric m : shown) {
      if (m.unit() != null && !heading(m.metric()).equals(m.unit()) && !m.metric().equals("iops")) {
        byUnit.computeIfAbsent(m.unit(), u -> new LinkedHashSet<>()).add(heading(m.metric()));
      }
    }
    List<String> in = new ArrayList<>();
    byUnit.forEach((unit, metrics) -> in.add(String.join(", ", metrics) + " in " + unit));
    return "entries: mean ±population standard deviation in % of the mean"
        + (in.isEmpty() ? "" : "; " + String.join("; ", in))
        + warmupNote();
  }

  /** A metric as a column heading: the classic tables' {@code MiB/s} and {@code IOPS}. */
  static String heading(String metric) {
    return switch (metric) {
      case "mib_per_s" -> "MiB/s";
      case "iops" -> "IOPS";
      default -> metric;
    };
  }

  private String unitSuffix() {
    String unit = metric == null ? null : data.unit(metric);
    return unit == null ? "" : " (" + unit + ")";
  }

  private String warmupNote() {
    boolean warmups =
        data.cells().stream().flatMap(c -> c.trials().stream()).anyMatch(Trial::warmup);
    return warmups ? "; warm-up trials not shown" : "";
  }

  /**
   * Whether some cell reads or writes in blocks of 1 MiB or more (an axis shown as {@code bs}),
   * where IOPS is MiB/s itself or a fraction of it and easily mistaken for it.
   */
  private boolean largeBlocks() {
    for (String axis : data.paramNames()) {
      if (!axes.shown(axis).equals("bs")) {
        continue;
      }
      for (Cell cell : data.cells()) {
        String bs = cell.params().get(axis);
        try {
          if (bs != null && Sizes.parseBytes(bs) >= 1 << 20) {
            return true;
          }
        } catch (IllegalArgumentException notASize) {
          // a bs given as ${var} or text: no claim about it
        }
      }
    }
    return false;
  }

  private boolean hasStat(String name) {
    return data.cells().stream().anyMatch(c -> c.stats().containsKey(name));
  }

  /** Adds one entry per repetition: the value of {@code m}, or why there is none. */
  private void addRepetitions(Cell cell, List<Value> row, String m) {
    List<Trial> measured = cell.measured();
    for (int r = 0; r < reps; r++) {
      if (r >= measured.size()) {
        row.add(new Text(""));
        continue;
      }
      Trial t = measured.get(r);
      Double v = m == null ? null : t.value(m);
      row.add(
          switch (t.status()) {
            case OK -> v == null ? new Absent("?") : new Table.Number(v);
            case FAILED -> new Absent("fail");
            case SKIPPED -> new Absent("skip");
            case PENDING, RUNNING -> new Absent("-");
          });
    }
  }
}
