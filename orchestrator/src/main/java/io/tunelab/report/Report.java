package io.tunelab.report;

import io.tunelab.TunelabException;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.ReportData;
import io.tunelab.store.ReportData.Cell;
import io.tunelab.store.ReportData.Trial;
import io.tunelab.store.TrialCounts;
import io.tunelab.store.TrialStatus;
import io.tunelab.workload.Sample;
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
 * @param boots between-boot against within-boot spread of {@code metric} per cell; empty unless
 *     some cell's trials ran on several boots of a host
 * @param unfinished what has not run yet and how to run it, or null
 * @param sideBySide the jobs' metrics whose means stand side by side in the table, in column order;
 *     empty for a report of one job and one metric ({@code data}, {@code metric} and {@code
 *     warnings} then hold the first of them)
 * @param search what the report says of a search besides its cells; null for a grid
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
    List<BootSpread> boots,
    Warnings warnings,
    String unfinished,
    List<JobMetric> sideBySide,
    SearchSection search) {

  /**
   * One metric of one job in a table of several side by side, with the job's data and the warnings
   * about that metric.
   */
  public record JobMetric(
      String job, String metric, String unit, ReportData data, Warnings warnings) {
    /** {@code writer mib_per_s}. */
    public String name() {
      return job + " " + metric;
    }
  }

  /** Warnings about some of the shown metrics: what they are about and the lines for people. */
  public record WarningSection(List<String> about, List<String> lines) {}

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

  /**
   * Builds the report of one job or of several side by side, as loaded for one {@code
   * ReportSelection}: one job with at most one metric ({@link ReportData#shown()}) gives the report
   * of {@link #build(ReportData, Options)}, more give a table with the mean and spread of every
   * job's metrics side by side. An unknown axis, or {@code --cols} with several, fails with exit
   * code 2.
   */
  public static Report build(List<ReportData> jobs, Options options) {
    ReportData first = jobs.get(0);
    if (jobs.size() == 1 && first.shown().size() <= 1) {
      return build(
          first,
          first.shown().isEmpty()
              ? options
              : new Options(options.rows(), options.columns(), first.shown().get(0)));
    }
    return sideBySide(jobs, options);
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
    ReportTables tables = new ReportTables(data, axes, layout, metric);
    Table table =
        columns != null ? tables.pivot() : classic ? tables.classic() : tables.perRepetition();
    String legend =
        data.cells().isEmpty()
            ? null
            : columns != null
                ? tables.pivotLegend()
                : classic ? tables.classicLegend() : tables.metricLegend();
    return new Report(
        data,
        metric,
        classic,
        layout,
        axes,
        preamble(data, false),
        legend,
        table,
        failures(data),
        BootSpread.of(data, metric),
        Warnings.of(data.cells(), metric, unitOf(data, metric), Cell::label, data.about()),
        unfinished(data),
        List.of(),
        null);
  }

  private static Report sideBySide(List<ReportData> jobs, Options options) {
    ReportData data = jobs.get(0);
    if (options.columns() != null) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          "--cols shows one job's metric; several jobs or metrics stand side by side in rows"
              + " (--rows)");
    }
    AxisNames axes = new AxisNames(data.paramNames());
    String where = "experiment " + data.experimentId() + " (" + data.name() + ")";
    List<String> rows = options.rows().stream().map(a -> axes.resolve(a, where)).toList();
    Layout layout =
        rows.isEmpty()
            ? Layout.classic(data.paramNames())
            : Layout.of(data.paramNames(), rows, null);
    List<JobMetric> shown = new ArrayList<>();
    for (ReportData d : jobs) {
      for (String m : d.shown()) {
        String unit = d.unit(m);
        Warnings w = Warnings.of(d.cells(), m, unit, Cell::label, d.about());
        shown.add(new JobMetric(d.job(), m, unit, d, w));
      }
    }
    JobMetric first = shown.get(0);
    ReportTables tables = new ReportTables(data, axes, layout, first.metric());
    return new Report(
        data,
        first.metric(),
        false,
        layout,
        axes,
        preamble(data, jobs.size() > 1),
        data.cells().isEmpty() ? null : tables.sideBySideLegend(shown),
        tables.sideBySide(shown, jobs.size() > 1),
        failures(data),
        BootSpread.of(first.data(), first.metric()),
        first.warnings(),
        unfinished(data),
        List.copyOf(shown),
        null);
  }

  /** This report with a search's section. */
  public Report withSearch(SearchSection section) {
    return new Report(
        data,
        metric,
        classic,
        layout,
        axes,
        preamble,
        legend,
        table,
        failures,
        boots,
        warnings,
        unfinished,
        sideBySide,
        section);
  }

  /** The heading of the boot spread lines: what they are about and how they are computed. */
  public String bootsHeading() {
    return "boots, "
        + metric
        + " (between: sample sd of the per-boot means; within: pooled sd of the trials around"
        + " their boot's mean)";
  }

  /** Whether several jobs or metrics stand side by side. */
  public boolean isSideBySide() {
    return !sideBySide.isEmpty();
  }

  /**
   * The warnings for people, one section per set of metrics with the same lines (the repetition
   * counts of several jobs are usually the same), indented by {@code indent} and two more spaces.
   */
  public List<WarningSection> warningSections(String indent) {
    if (sideBySide.isEmpty()) {
      return warnings.isEmpty()
          ? List.of()
          : List.of(new WarningSection(List.of(metric), warnings.lines(indent)));
    }
    Map<List<String>, List<String>> byLines = new LinkedHashMap<>();
    for (JobMetric m : sideBySide) {
      List<String> lines = m.warnings().lines(indent);
      if (!lines.isEmpty()) {
        byLines.computeIfAbsent(lines, l -> new ArrayList<>()).add(m.name());
      }
    }
    List<WarningSection> sections = new ArrayList<>();
    byLines.forEach((lines, about) -> sections.add(new WarningSection(about, lines)));
    return sayingSharedLinesOnce(sections, indent);
  }

  /**
   * A one-line condition that holds for every shown metric (the repetition count, usually) is said
   * once, in a last section about all of them, instead of under each metric's own.
   */
  private List<WarningSection> sayingSharedLinesOnce(List<WarningSection> sections, String indent) {
    if (sections.size() < 2
        || sections.stream().mapToInt(w -> w.about().size()).sum() != sideBySide.size()) {
      return sections;
    }
    List<String> shared = new ArrayList<>();
    for (String line : sections.get(0).lines()) {
      if ((line.startsWith(indent + Warnings.EVERY_CELL)
              || line.contains(Warnings.FLAGGED)
              || line.contains(Warnings.READ_BACK))
          && sections.stream().allMatch(w -> w.lines().contains(line))) {
        shared.add(line);
      }
    }
    if (shared.isEmpty()) {
      return sections;
    }
    List<WarningSection> kept = new ArrayList<>();
    List<String> everyMetric = new ArrayList<>();
    for (WarningSection w : sections) {
      everyMetric.addAll(w.about());
      List<String> rest = w.lines().stream().filter(l -> !shared.contains(l)).toList();
      if (!rest.isEmpty()) {
        kept.add(new WarningSection(w.about(), rest));
      }
    }
    kept.add(new WarningSection(List.copyOf(everyMetric), List.copyOf(shared)));
    return kept;
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

  // Several jobs name themselves above their columns.
  private static List<String> preamble(ReportData data, boolean severalJobs) {
    List<String> lines = new ArrayList<>();
    ReportData.About about = data.about();
    if (about.description() != null && !about.description().isBlank()) {
      lines.add("description: " + about.description().strip());
    }
    List<String> run = new ArrayList<>();
    if (about.startedAt() != null && about.startedAt().length() >= 16) {
      run.add("started " + about.startedAt().substring(0, 16).replace('T', ' ') + " UTC");
    }
    if (about.toolVersion() != null) {
      run.add("tunelab " + about.toolVersion());
    }
    if (!run.isEmpty()) {
      lines.add("run: " + String.join(", ", run));
    }
    if (!data.hosts().isEmpty()) {
      List<String> hosts = new ArrayList<>();
      for (ReportData.Host h : data.hosts()) {
        String kernel = h.kernelRelease() == null ? "" : " " + h.kernelRelease();
        hosts.add(h.role() + "=" + h.host() + kernel);
      }
      lines.add("hosts: " + String.join(", ", hosts));
      Set<String> described = new LinkedHashSet<>();
      for (ReportData.Host h : data.hosts()) {
        String detail = HostLine.of(h);
        if (detail != null && described.add(h.host())) {
          lines.add("host " + h.host() + ": " + detail);
        }
      }
    }
    if (about.workload() != null) {
      lines.add("workload: " + about.workload());
    }
    if (!data.overrides().isEmpty()) {
      List<String> set = new ArrayList<>();
      data.overrides().forEach((name, value) -> set.add(name + "=" + value));
      lines.add("set: " + String.join(" ", set));
    }
    if (!severalJobs && data.job() != null && !data.job().equals(Sample.AGGREGATE_JOB)) {
      lines.add("job: " + data.job());
    }
    if (data.repetitions() != null) {
      lines.addAll(RepetitionLines.of(data));
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
}
