package io.tunelab.store;

import io.tunelab.matrix.RepeatRule;
import io.tunelab.stats.Summary;
import java.util.List;
import java.util.Map;

/**
 * What reports and comparisons show of one experiment, loaded from the store.
 *
 * @param job the job whose samples are reported: {@code all} (the aggregate of concurrent jobs)
 *     when recorded, else the only job; null when nothing was measured yet
 * @param jobs every job with statistics, sorted
 * @param units the unit of every metric of {@code job} with statistics, by metric name (sorted)
 * @param paramNames every parameter (axis name as written), in axis order
 * @param cells by ordinal
 * @param shown the metrics of {@code job} asked to be shown, in order; empty for the default
 * @param overrides the {@code --set NAME=VALUE} the experiment ran with, in order
 * @param about when and by which tunelab it ran, and what its matrix says it is
 * @param repetitions the adaptive repeat rule and each cell's outcome; null for a fixed count
 */
public record ReportData(
    long experimentId,
    String name,
    ExperimentStatus status,
    List<Host> hosts,
    TrialCounts counts,
    String job,
    List<String> jobs,
    Map<String, String> units,
    List<String> paramNames,
    List<Cell> cells,
    List<String> shown,
    Map<String, String> overrides,
    About about,
    Repetitions repetitions) {

  public ReportData {
    shown = List.copyOf(shown);
  }

  /** A builder: the experiment's id and name, then what a report shows of it. */
  public static Builder builder(long experimentId, String name) {
    return new Builder(experimentId, name);
  }

  /**
   * Builds a {@link ReportData}: status {@code finished}, no hosts, no trial counts, job {@code
   * all}, nothing shown or overridden, nothing known about the run and a fixed repeat until told.
   */
  public static final class Builder {
    private final long experimentId;
    private final String name;
    private ExperimentStatus status = ExperimentStatus.FINISHED;
    private List<Host> hosts = List.of();
    private TrialCounts counts = new TrialCounts(0, 0, 0, 0, 0);
    private String job = "all";
    private List<String> jobs = List.of("all");
    private Map<String, String> units = Map.of();
    private List<String> paramNames = List.of();
    private List<Cell> cells = List.of();
    private List<String> shown = List.of();
    private Map<String, String> overrides = Map.of();
    private About about = About.UNKNOWN;
    private Repetitions repetitions;

    private Builder(long experimentId, String name) {
      this.experimentId = experimentId;
      this.name = name;
    }

    public Builder status(ExperimentStatus v) {
      status = v;
      return this;
    }

    public Builder hosts(List<Host> v) {
      hosts = v;
      return this;
    }

    public Builder counts(TrialCounts v) {
      counts = v;
      return this;
    }

    /** The reported job, and every job with statistics. */
    public Builder job(String v, List<String> all) {
      job = v;
      jobs = all;
      return this;
    }

    public Builder units(Map<String, String> v) {
      units = v;
      return this;
    }

    public Builder paramNames(List<String> v) {
      paramNames = v;
      return this;
    }

    public Builder cells(List<Cell> v) {
      cells = v;
      return this;
    }

    public Builder shown(List<String> v) {
      shown = v;
      return this;
    }

    public Builder overrides(Map<String, String> v) {
      overrides = v;
      return this;
    }

    public Builder about(About v) {
      about = v;
      return this;
    }

    public Builder repetitions(Repetitions v) {
      repetitions = v;
      return this;
    }

    public ReportData build() {
      return new ReportData(
          experimentId,
          name,
          status,
          hosts,
          counts,
          job,
          jobs,
          units,
          paramNames,
          cells,
          shown,
          overrides,
          about,
          repetitions);
    }
  }

  /**
   * The adaptive repeat rule an experiment ran with, and what each cell with measurements reached
   * under it.
   *
   * @param metric the main metric the rule judged (of job {@code all})
   * @param cells by ordinal
   */
  public record Repetitions(RepeatRule rule, String metric, List<CellRepetitions> cells) {
    public Repetitions {
      cells = List.copyOf(cells);
    }
  }

  /**
   * How far one cell got: {@code n} measured trials and the 95 % confidence half-width of the mean
   * as a fraction of the mean (infinite for n < 2).
   */
  public record CellRepetitions(int ordinal, String label, int n, double relativeHalfWidth) {}

  /**
   * When the experiment started (ISO-8601 UTC, null before it ran), the tunelab version that
   * created it, its matrix's description and its {@code workload:} on one line ({@link
   * io.tunelab.matrix.WorkloadSummary}), each null when not recorded; and its matrix's {@code
   * on_flag} ({@code keep}, {@code rerun} or {@code exclude}); and the knobs that read back other
   * than asked in ok trials, beyond the roundings the kernel is known to do; and the order its
   * trials ran in ({@code sequential}, {@code shuffle}, {@code fewest-changes}, {@code rounds}),
   * null when not known.
   */
  public record About(
      String startedAt,
      String toolVersion,
      String description,
      String workload,
      String onFlag,
      List<Readback> readbacks,
      String order) {
    /** Nothing recorded. */
    public static final About UNKNOWN = new About(null, null, null);

    public About {
      readbacks = List.copyOf(readbacks);
    }

    /** Without a record of the order. */
    public About(
        String startedAt,
        String toolVersion,
        String description,
        String workload,
        String onFlag,
        List<Readback> readbacks) {
      this(startedAt, toolVersion, description, workload, onFlag, readbacks, null);
    }

    /** Without a workload summary, keeping flagged trials, every knob held as asked. */
    public About(String startedAt, String toolVersion, String description) {
      this(startedAt, toolVersion, description, null, "keep", List.of());
    }
  }

  /**
   * A knob that read back {@code effective} after {@code requested} was written, in {@code trials}
   * ok trials: a write the kernel ignored or changed, not a known rounding.
   */
  public record Readback(
      String role, String host, String knob, String requested, String effective, int trials) {}

  /**
   * A host the experiment ran on.
   *
   * @param cpus online CPUs, or null when not recorded
   * @param memKb total memory, or null
   * @param cpuModel the CPU's model name, or null
   * @param cpufreqGovernor cpu0's cpufreq governor, or null (no cpufreq, or not recorded)
   */
  public record Host(
      String role,
      String host,
      String kernelRelease,
      Integer cpus,
      Long memKb,
      String cpuModel,
      String cpufreqGovernor) {
    /** A host of which only the kernel is known. */
    public Host(String role, String host, String kernelRelease) {
      this(role, host, kernelRelease, null, null, null, null);
    }
  }

  /**
   * One cell: its parameter values, every trial (warm-ups flagged) by repetition, and the
   * statistics of the reported job by metric ({@code seconds}, {@code mib_per_s} …).
   */
  public record Cell(
      int ordinal,
      String label,
      Map<String, String> params,
      List<Trial> trials,
      Map<String, Stat> stats) {

    /** The trials that count: not warm-ups, in repetition order. */
    public List<Trial> measured() {
      return trials.stream().filter(t -> !t.warmup()).toList();
    }

    /**
     * The values of {@code metric} of the ok, non-warm-up trials not excluded for a health flag:
     * what the statistics cover.
     */
    public double[] values(String metric) {
      return trials.stream()
          .filter(t -> t.counted() && t.value(metric) != null)
          .mapToDouble(t -> t.value(metric))
          .toArray();
    }
  }

  /**
   * One repetition. {@code values} holds the reported job's samples of the metrics that were loaded
   * (by metric name); a metric that was not measured is absent. {@code boots} says what each host
   * ran during it, by host name; empty where the store did not record it. {@code flags} are its
   * health flags; {@code excluded} says they leave it out of the statistics ({@code on_flag:
   * exclude}).
   */
  public record Trial(
      int rep,
      boolean warmup,
      TrialStatus status,
      String error,
      Map<String, Double> values,
      List<Boot> boots,
      List<Flag> flags,
      boolean excluded) {

    public Trial {
      boots = List.copyOf(boots);
      flags = List.copyOf(flags);
    }

    /** A repetition without health flags. */
    public Trial(
        int rep,
        boolean warmup,
        TrialStatus status,
        String error,
        Map<String, Double> values,
        List<Boot> boots) {
      this(rep, warmup, status, error, values, boots, List.of(), false);
    }

    /** Whether the statistics cover it: ok, not a warm-up, not excluded for a flag. */
    public boolean counted() {
      return !warmup && status == TrialStatus.OK && !excluded;
    }

    /** A repetition without a record of the hosts' boots. */
    public Trial(
        int rep, boolean warmup, TrialStatus status, String error, Map<String, Double> values) {
      this(rep, warmup, status, error, values, List.of());
    }

    /** The reported job's time, null when not measured. */
    public Double seconds() {
      return value("seconds");
    }

    /** The reported job's value of {@code metric}, null when not measured or not loaded. */
    public Double value(String metric) {
      return values.get(metric);
    }
  }

  /**
   * A health flag of a trial ({@code dmesg}, {@code knob_drift} …) and where it was raised: the
   * roles of its host, or the host's name when it plays none.
   */
  public record Flag(String flag, String where) {}

  /** What one host ran during a trial (table {@code trial_hosts}). */
  public record Boot(String host, String kernelRelease, String bootId, String cmdline) {}

  /** The statistics of one metric over the ok, non-warm-up trials of a cell. */
  public record Stat(String unit, Summary summary) {
    public int n() {
      return summary.n();
    }

    public double mean() {
      return summary.mean();
    }

    public double stddevPop() {
      return summary.stddevPop();
    }
  }

  /** The unit of {@code metric} for the reported job, or null when it has no statistics. */
  public String unit(String metric) {
    return units.get(metric);
  }

  /**
   * The metric reports show unless told otherwise: {@code mib_per_s} when recorded (dd), else
   * {@code seconds}, else the first by name; null before anything was measured.
   */
  public String mainMetric() {
    if (units.containsKey("mib_per_s")) {
      return "mib_per_s";
    }
    if (units.containsKey("seconds")) {
      return "seconds";
    }
    return units.isEmpty() ? null : units.keySet().iterator().next();
  }

  /** {@code readahead (experiment 3, finished)}. */
  public String title() {
    return name + " (experiment " + experimentId + ", " + status + ")";
  }
}
