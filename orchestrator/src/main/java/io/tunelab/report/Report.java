package io.tunelab.report;

import io.tunelab.report.Table.Absent;
import io.tunelab.report.Table.Block;
import io.tunelab.report.Table.Column;
import io.tunelab.report.Table.Measure;
import io.tunelab.report.Table.Text;
import io.tunelab.report.Table.Value;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.ReportData;
import io.tunelab.store.ReportData.Cell;
import io.tunelab.store.ReportData.Stat;
import io.tunelab.store.ReportData.Trial;
import io.tunelab.store.ResultStore.Sample;
import io.tunelab.store.TrialCounts;
import io.tunelab.store.TrialStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The report of one experiment, ready to print in any {@link ReportFormat}: a headline, a legend,
 * the table, failed trials, warnings about noisy cells, and what has not run yet.
 *
 * @param metric the metric the table and the warnings are about (null before any measurement)
 * @param classic whether the table has the classic columns (times, MiB/s, std, IOPS)
 * @param preamble lines between the headline and the legend (hosts, the job)
 * @param failures one line per failed trial
 * @param unfinished what has not run yet and how to run it, or null
 */
public record Report(
    ReportData data,
    String metric,
    boolean classic,
    Layout layout,
    AxisNames axes,
    List<String> preamble,
    String legend,
    Table table,
    List<String> failures,
    Warnings warnings,
    String unfinished) {

  /**
   * What to show. Axes are given as written in the matrix or by their short names.
   *
   * @param rows axes whose values make the rows; empty for the default
   * @param columns the axis whose values become columns, or null
   * @param metric the metric to show instead of the classic columns, or null
   */
  public record Options(List<String> rows, String columns, String metric) {
    /** The classic report. */
    public static final Options CLASSIC = new Options(List.of(), null, null);

    public Options {
      rows = List.copyOf(rows);
    }
  }

  /** Builds the report; an unknown axis fails with exit code 2. */
  public static Report build(ReportData data, Options options) {
    AxisNames axes = new AxisNames(data.paramNames());
    String where = "experiment " + data.experimentId() + " (" + data.name() + ")";
    List<String> rows = options.rows().stream().map(a -> axes.resolve(a, where)).toList();
    String columns = options.columns() == null ? null : axes.resolve(options.columns(), where);
    Layout layout =
        rows.isEmpty() && columns == null
            ? Layout.classic(data.paramNames())
            : Layout.of(data.paramNames(), rows, columns);
    boolean classic = options.metric() == null && columns == null;
    String metric = options.metric() != null ? options.metric() : data.mainMetric();
    Builder b = new Builder(data, axes, layout, metric);
    Table table = columns != null ? b.pivot() : classic ? b.classic() : b.perRepetition();
    String legend =
        data.cells().isEmpty()
            ? null
            : columns != null ? b.pivotLegend() : classic ? b.classicLegend() : b.metricLegend();
    return new Report(
        data,
        metric,
        classic,
        layout,
        axes,
        preamble(data),
        legend,
        table,
        failures(data),
        Warnings.of(data.cells(), metric, unitOf(data, metric), Cell::label),
        unfinished(data));
  }

  /** {@code name (experiment 3, finished): 12 of 18 trials ok; 6 pending}. */
  public static String headline(ReportData data) {
    TrialCounts t = data.counts();
    StringBuilder line =
        new StringBuilder(
            String.format(Locale.ROOT, "%s: %d of %d trials ok", data.title(), t.ok(), t.total()));
    List<String> rest = new ArrayList<>();
    for (TrialStatus status : TrialStatus.values()) {
      if (status != TrialStatus.OK && t.of(status) > 0) {
        rest.add(t.of(status) + " " + status.text());
      }
    }
    if (!rest.isEmpty()) {
      line.append("; ").append(String.join(", ", rest));
    }
    return line.toString();
  }

  /** The headline of this report. */
  public String headline() {
    return headline(data);
  }

  /** The unit of the reported metric, or null. */
  public String unit() {
    return unitOf(data, metric);
  }

  private static String unitOf(ReportData data, String metric) {
    return metric == null ? null : data.unit(metric);
  }

  private static List<String> preamble(ReportData data) {
    List<String> lines = new ArrayList<>();
    if (!data.hosts().isEmpty()) {
      List<String> hosts = new ArrayList<>();
      for (ReportData.Host h : data.hosts()) {
        String kernel = h.kernelRelease() == null ? "" : " " + h.kernelRelease();
        hosts.add(h.role() + "=" + h.host() + kernel);
      }
      lines.add("hosts: " + String.join(", ", hosts));
    }
    if (data.job() != null && !data.job().equals(Sample.AGGREGATE_JOB)) {
      lines.add("job: " + data.job());
    }
    return lines;
  }

  private static List<String> failures(ReportData data) {
    List<String> lines = new ArrayList<>();
    for (Cell cell : data.cells()) {
      for (Trial t : cell.trials()) {
        if (t.status() == TrialStatus.FAILED) {
          String error =
              t.error() == null ? "" : ": " + t.error().strip().lines().findFirst().orElse("");
          lines.add(
              "cell "
                  + cell.ordinal()
                  + " ("
                  + cell.label()
                  + ") rep "
                  + t.rep()
                  + (t.warmup() ? " (warm-up)" : "")
                  + error);
        }
      }
    }
    return lines;
  }

  /** Says how many trials have not run, in which cells, and how to run them; null if none. */
  static String unfinished(ReportData data) {
    TrialCounts t = data.counts();
    if (t.unfinished() == 0) {
      return null;
    }
    Set<Integer> cells = new LinkedHashSet<>();
    for (Cell cell : data.cells()) {
      for (Trial trial : cell.trials()) {
        if (trial.status().unfinished()) {
          cells.add(cell.ordinal());
        }
      }
    }
    List<String> shown = cells.stream().limit(10).map(String::valueOf).toList();
    String which =
        (cells.size() == 1 ? "cell " : "cells ")
            + String.join(", ", shown)
            + (cells.size() > shown.size() ? " … (" + cells.size() + " cells)" : "");
    String trials = t.unfinished() + " of " + t.total() + " trials";
    if (data.status() == ExperimentStatus.RUNNING) {
      return "still running: " + trials + " to go (" + which + ")";
    }
    return "unfinished: "
        + trials
        + " have not run ("
        + which
        + "); `tunelab resume "
        + data.experimentId()
        + "` runs them";
  }

  /** Builds the tables; one instance per report. */
  private static final class Builder {
    private final ReportData data;
    private final AxisNames axes;
    private final Layout layout;
    private final String metric;
    private final int reps;

    Builder(ReportData data, AxisNames axes, Layout layout, String metric) {
      this.data = data;
      this.axes = axes;
      this.layout = layout;
      this.metric = metric;
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
      List<Column> columns = rowColumns();
      for (int r = 1; r <= reps; r++) {
        columns.add(new Column("t" + r, true));
      }
      columns.add(new Column(throughput ? "MiB/s" : "mean(s)", true));
      columns.add(new Column(throughput ? "std" : "std(s)", true));
      if (iops) {
        columns.add(new Column("IOPS", true));
      }
      return table(
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
      } else {
        text.append("mean(s), std(s): mean and population standard deviation of the time");
      }
      return text.append(warmupNote()).toString();
    }

    // The chosen metric per repetition, then its mean and std.
    Table perRepetition() {
      List<Column> columns = rowColumns();
      for (int r = 1; r <= reps; r++) {
        columns.add(new Column("r" + r, true));
      }
      columns.add(new Column("mean", true));
      columns.add(new Column("std", true));
      return table(
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
      List<String> values = distinct(axis);
      List<Column> columns = rowColumns();
      for (String v : values) {
        columns.add(new Column(axes.shown(axis) + "=" + v, true));
      }
      Map<String, Map<String, Cell>> byRow = new LinkedHashMap<>();
      Map<String, Cell> first = new LinkedHashMap<>();
      for (Cell cell : data.cells()) {
        String key = key(cell, layout.blocks()) + "\u0000" + key(cell, layout.rows());
        byRow.computeIfAbsent(key, k -> new LinkedHashMap<>()).put(value(cell, axis), cell);
        first.putIfAbsent(key, cell);
      }
      Map<String, Block> blocks = new LinkedHashMap<>();
      for (Map.Entry<String, Cell> row : first.entrySet()) {
        Cell cell = row.getValue();
        List<Value> entries = rowValues(cell);
        for (String v : values) {
          Cell at = byRow.get(row.getKey()).get(v);
          Stat s = at == null || metric == null ? null : at.stats().get(metric);
          entries.add(s == null ? new Absent("-") : new Measure(s.mean(), s.stddevPop()));
        }
        block(blocks, cell).rows().add(entries);
      }
      return new Table(blockColumns(), columns, List.copyOf(blocks.values()));
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

    private String unitSuffix() {
      String unit = metric == null ? null : data.unit(metric);
      return unit == null ? "" : " (" + unit + ")";
    }

    private String warmupNote() {
      boolean warmups =
          data.cells().stream().flatMap(c -> c.trials().stream()).anyMatch(Trial::warmup);
      return warmups ? "; warm-up trials not shown" : "";
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

    /** A row per cell, blocks in order of first appearance. */
    private Table table(List<Column> columns, RowFiller filler) {
      Map<String, Block> blocks = new LinkedHashMap<>();
      for (Cell cell : data.cells()) {
        List<Value> row = rowValues(cell);
        filler.fill(cell, row);
        block(blocks, cell).rows().add(row);
      }
      return new Table(blockColumns(), columns, List.copyOf(blocks.values()));
    }

    private Block block(Map<String, Block> blocks, Cell cell) {
      return blocks.computeIfAbsent(
          key(cell, layout.blocks()),
          k ->
              new Block(
                  title(cell),
                  layout.blocks().stream().map(a -> value(cell, a)).toList(),
                  new ArrayList<>()));
    }

    private String title(Cell cell) {
      if (layout.blocks().equals(List.of(Layout.CASE_AXIS))) {
        return "case: " + value(cell, Layout.CASE_AXIS);
      }
      List<String> parts = new ArrayList<>();
      for (String axis : layout.blocks()) {
        parts.add(axes.shown(axis) + "=" + value(cell, axis));
      }
      return String.join("  ", parts);
    }

    private List<Column> rowColumns() {
      List<Column> columns = new ArrayList<>();
      for (String axis : layout.rows()) {
        columns.add(new Column(axes.shown(axis), allNumbers(axis)));
      }
      return columns;
    }

    private List<String> blockColumns() {
      return layout.blocks().stream().map(axes::shown).toList();
    }

    private List<Value> rowValues(Cell cell) {
      List<Value> row = new ArrayList<>();
      for (String axis : layout.rows()) {
        row.add(new Text(value(cell, axis)));
      }
      return row;
    }

    // Numeric parameters (threads, iodepth) line up on the right like the measurements.
    private boolean allNumbers(String axis) {
      return data.cells().stream()
          .map(c -> c.params().get(axis))
          .allMatch(v -> v != null && v.matches("-?\\d+(\\.\\d+)?"));
    }

    private List<String> distinct(String axis) {
      Set<String> values = new LinkedHashSet<>();
      for (Cell cell : data.cells()) {
        values.add(value(cell, axis));
      }
      return List.copyOf(values);
    }

    private static String value(Cell cell, String axis) {
      return cell.params().getOrDefault(axis, "-");
    }

    // NUL cannot appear in a YAML value, so joined keys cannot collide.
    private static String key(Cell cell, List<String> axes) {
      StringBuilder key = new StringBuilder();
      for (String axis : axes) {
        key.append(value(cell, axis)).append('\u0000');
      }
      return key.toString();
    }
  }

  /** Fills the measurement entries of a cell's row. */
  private interface RowFiller {
    void fill(Cell cell, List<Value> row);
  }
}
