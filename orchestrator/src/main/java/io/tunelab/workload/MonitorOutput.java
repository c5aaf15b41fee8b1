package io.tunelab.workload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A monitor's output during one trial read into interval rows: {@code vmstat}, {@code iostat} or
 * {@code mpstat}, run with {@link #argv}. Column names become metric names lower-cased with {@code
 * %} → {@code _pct}, {@code /} → {@code _per_} and {@code -} → {@code _} ({@code %util} → {@code
 * util_pct}, {@code rkB/s} → {@code rkb_per_s}, {@code rareq-sz} → {@code rareq_sz}).
 *
 * <p>Beside the rows, the trial-wide figures from the kernel's counters at the monitor's start and
 * the trial's stop ({@link MonitorCounters}): vmstat's {@code us sy id wa st} and mpstat's CPU
 * columns from {@code /proc/stat} ({@link CpuCounters}), iostat's extended columns from {@code
 * /proc/diskstats} ({@link DiskCounters}). They cover the whole trial, however short, where the
 * rows cover whole intervals only.
 *
 * @param tool {@code vmstat}, {@code iostat} or {@code mpstat}
 * @param rows every value of every interval row, in output order
 * @param trialWide the figures from the counters (each with rows 0); empty without counters
 */
public record MonitorOutput(String tool, List<MonitorRow> rows, List<MonitorMean> trialWide) {
  /** The monitors tunelab knows. */
  public static final List<String> TOOLS = List.of("vmstat", "iostat", "mpstat");

  private static final Pattern NUMBER = Pattern.compile("[-+]?\\d+(?:[.,]\\d+)?");

  public MonitorOutput {
    rows = List.copyOf(rows);
    trialWide = List.copyOf(trialWide);
  }

  /**
   * The command that runs {@code tool} until stopped, every {@code interval} (whole seconds: none
   * of the three tools takes fractions). {@code LC_ALL=C} gives decimal points and a 24-hour clock;
   * stop it with SIGTERM (vmstat started in the background by sh ignores SIGINT).
   *
   * @param devices iostat only: the devices to report (empty: all); ignored by the others
   */
  public static List<String> argv(String tool, Duration interval, List<String> devices) {
    String seconds = Long.toString(wholeSeconds(interval));
    List<String> argv = new ArrayList<>(List.of("env", "LC_ALL=C"));
    switch (tool) {
      case "vmstat" -> argv.addAll(List.of("vmstat", "-n", seconds));
      case "iostat" -> {
        // -y drops the since-boot report; no -t: rows are placed by their interval number.
        argv.addAll(List.of("iostat", "-dxky"));
        argv.addAll(devices);
        argv.add(seconds);
      }
      case "mpstat" -> argv.addAll(List.of("mpstat", seconds));
      default -> throw new IllegalArgumentException("unknown monitor " + tool);
    }
    return argv;
  }

  /**
   * Reads what {@code monitor} printed ({@code lines}) and the kernel's counters its agent relayed
   * ({@code counters}, {@link MonitorCounters}; empty when there are none).
   */
  public static MonitorOutput parse(
      MonitorPlan monitor, List<String> lines, List<String> counters) {
    MonitorOutput output = parse(monitor.tool(), lines, monitor.interval());
    MonitorCounters read = MonitorCounters.parse(counters);
    if (read == null) {
      return output;
    }
    List<MonitorMean> trialWide =
        monitor.tool().equals("iostat")
            ? DiskCounters.figures(read, monitor.devices())
            : CpuCounters.figures(monitor.tool(), read);
    return new MonitorOutput(output.tool(), output.rows(), trialWide);
  }

  /** Reads {@code lines} of {@code tool} run every {@code interval}, without counters. */
  public static MonitorOutput parse(String tool, List<String> lines, Duration interval) {
    double seconds = wholeSeconds(interval);
    List<MonitorRow> rows =
        switch (tool) {
          case "vmstat" -> VmstatOutput.rows(lines, seconds);
          case "iostat" -> IostatOutput.rows(lines, seconds);
          case "mpstat" -> MpstatOutput.rows(lines, seconds);
          default -> throw new IllegalArgumentException("unknown monitor " + tool);
        };
    return new MonitorOutput(tool, rows, List.of());
  }

  /**
   * A trial's monitor samples, one per (device, metric): the trial-wide figure where there is one,
   * else the mean of the interval rows; in order of first appearance in the rows, then the
   * trial-wide figures no row has (all of them when the trial was shorter than one interval).
   */
  public List<MonitorMean> means() {
    Map<List<String>, MonitorMean> wide = new LinkedHashMap<>();
    trialWide.forEach(f -> wide.put(List.of(f.device(), f.metric()), f));
    List<MonitorMean> means = new ArrayList<>();
    for (MonitorMean mean : intervalMeans()) {
      MonitorMean f = wide.remove(List.of(mean.device(), mean.metric()));
      means.add(f != null ? f : mean);
    }
    means.addAll(wide.values());
    return means;
  }

  /** One mean per (device, metric) of the interval rows, in order of first appearance. */
  public List<MonitorMean> intervalMeans() {
    Map<List<String>, double[]> sums = new LinkedHashMap<>();
    Map<List<String>, String> units = new LinkedHashMap<>();
    for (MonitorRow r : rows) {
      List<String> key = List.of(r.device(), r.metric());
      double[] sum = sums.computeIfAbsent(key, k -> new double[2]);
      sum[0] += r.value();
      sum[1]++;
      units.putIfAbsent(key, r.unit());
    }
    List<MonitorMean> means = new ArrayList<>();
    sums.forEach(
        (key, sum) ->
            means.add(
                new MonitorMean(
                    key.get(0), key.get(1), sum[0] / sum[1], units.get(key), (int) sum[1])));
    return means;
  }

  /** {@code %util} → {@code util_pct}, {@code rkB/s} → {@code rkb_per_s}, {@code aqu-sz} → … */
  static String metricName(String column) {
    String name = column.toLowerCase(Locale.ROOT);
    boolean pct = name.startsWith("%");
    name = name.replace("%", "").replace("/", "_per_").replace("-", "_");
    return pct ? name + "_pct" : name;
  }

  /** A tool's number, or null; a decimal comma (a locale other than C) reads as a point. */
  static Double number(String token) {
    return NUMBER.matcher(token).matches() ? Double.valueOf(token.replace(',', '.')) : null;
  }

  static String[] fields(String line) {
    String s = line.strip();
    return s.isEmpty() ? new String[0] : s.split("\\s+");
  }

  private static long wholeSeconds(Duration interval) {
    if (interval.isNegative() || interval.isZero() || interval.toNanos() % 1_000_000_000L != 0) {
      throw new IllegalArgumentException("a monitor interval is whole seconds, not " + interval);
    }
    return interval.toSeconds();
  }
}
