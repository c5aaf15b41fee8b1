package io.tunelab.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one process, one job or a whole trial did, as {@link Measurements} records it: the common
 * metrics ({@code seconds}, {@code bytes}, {@code mib_per_s}, {@code iops}), fio's per-direction
 * and CPU metrics, and the values a program printed for the {@code metrics} parser.
 */
final class Figures {
  private static final double MIB = 1048576.0;

  private double seconds;
  private Long bytes;

  /** A rate the program reported itself (fio), summed over parts; null: derived from bytes. */
  private Double mibPerS;

  /** I/Os per second the program reported itself (fio), summed over parts. */
  private Double iops;

  /** dd's block size: {@code iops = mib_per_s / bs_in_MiB}; 0 when unknown or mixed. */
  private long blockBytes;

  /** fio's direction and CPU metrics, combined by their meaning. */
  private final Map<String, ParsedMetric> fio = new LinkedHashMap<>();

  /** Values a program printed (parser {@code metrics}), never combined over processes. */
  private final Map<String, ParsedMetric> printed = new LinkedHashMap<>();

  private Figures() {}

  /** A process's figures from its output, read with its job's parser. */
  static Figures of(JobPlan job, JobResult result) {
    Figures f = new Figures();
    f.seconds = result.hostSeconds();
    switch (job.parser()) {
      case DD -> {
        List<String> lines = new ArrayList<>(result.stderr());
        lines.addAll(result.stdout());
        DdSummary dd =
            DdSummary.find(lines)
                .orElseThrow(
                    () ->
                        new IllegalStateException(
                            "job " + result.name() + ": no dd summary line in its output"));
        f.seconds = dd.seconds();
        f.bytes = dd.bytes();
        f.blockBytes = job.blockBytes();
      }
      case FIO -> {
        for (ParsedMetric m : FioOutput.parse(result.stdout(), result.stderr()).metrics()) {
          switch (m.name()) {
            case "bytes" -> f.bytes = Math.round(m.value());
            case "mib_per_s" -> f.mibPerS = m.value();
            case "iops" -> f.iops = m.value();
            default -> f.fio.put(m.name(), m);
          }
        }
      }
      case METRICS -> {
        f.bytes = job.declaredBytes();
        for (ParsedMetric m : MetricsOutput.parse(result.stdout()).metrics()) {
          switch (m.name()) {
            case "seconds" -> f.seconds = m.value();
            case "bytes" -> f.bytes = Math.round(m.value());
            case "mib_per_s" -> f.mibPerS = m.value();
            case "iops" -> f.iops = m.value();
            default -> f.printed.put(m.name(), m);
          }
        }
      }
      case NONE -> f.bytes = job.declaredBytes();
    }
    return f;
  }

  /**
   * Processes (or jobs) that ran together: the slowest one's seconds; bytes, rates and IOPS summed
   * (bytes only when each part has them, a rate or IOPS only when each part reported its own, else
   * derived); fio's latency means weighted by IOPS, its percentiles the maximum (an upper bound of
   * the merged percentile), its CPU the mean; a printed value only when one part printed it.
   */
  static Figures combine(List<Figures> parts) {
    Figures all = new Figures();
    boolean allBytes = true;
    boolean allRates = true;
    boolean allIops = true;
    long block = -1;
    long bytes = 0;
    double rate = 0;
    double iops = 0;
    Map<String, Integer> printedBy = new LinkedHashMap<>();
    for (Figures p : parts) {
      all.seconds = Math.max(all.seconds, p.seconds);
      allBytes &= p.bytes != null;
      bytes += p.bytes == null ? 0 : p.bytes;
      allRates &= p.mibPerS != null;
      rate += p.mibPerS == null ? 0 : p.mibPerS;
      allIops &= p.iops != null;
      iops += p.iops == null ? 0 : p.iops;
      block = block == -1 || block == p.blockBytes ? p.blockBytes : 0;
      p.printed.forEach(
          (name, m) -> {
            printedBy.merge(name, 1, Integer::sum);
            all.printed.putIfAbsent(name, m);
          });
    }
    all.bytes = allBytes && !parts.isEmpty() ? bytes : null;
    all.mibPerS = allRates && !parts.isEmpty() ? rate : null;
    all.iops = allIops && !parts.isEmpty() ? iops : null;
    all.blockBytes = Math.max(block, 0);
    printedBy.forEach(
        (name, count) -> {
          if (count > 1) {
            all.printed.remove(name);
          }
        });
    combineFio(parts, all.fio);
    return all;
  }

  private static void combineFio(List<Figures> parts, Map<String, ParsedMetric> into) {
    Map<String, String> units = new LinkedHashMap<>();
    parts.forEach(p -> p.fio.forEach((name, m) -> units.putIfAbsent(name, m.unit())));
    for (Map.Entry<String, String> e : units.entrySet()) {
      String name = e.getKey();
      double sum = 0;
      double max = Double.NEGATIVE_INFINITY;
      double weighted = 0;
      double weights = 0;
      int n = 0;
      for (Figures p : parts) {
        ParsedMetric m = p.fio.get(name);
        if (m == null) {
          continue;
        }
        n++;
        sum += m.value();
        max = Math.max(max, m.value());
        if (name.endsWith("_lat_mean_us")) {
          ParsedMetric w = p.fio.get(name.replace("_lat_mean_us", "_iops"));
          double weight = w == null ? 0 : w.value();
          weighted += m.value() * weight;
          weights += weight;
        }
      }
      double value;
      if (name.endsWith("_bytes") || name.endsWith("_mib_per_s") || name.endsWith("_iops")) {
        value = sum;
      } else if (name.contains("_clat_p")) {
        value = max;
      } else if (name.endsWith("_lat_mean_us") && weights > 0) {
        value = weighted / weights;
      } else {
        value = sum / n;
      }
      into.put(name, new ParsedMetric(name, value, e.getValue()));
    }
  }

  /** Adds the samples of these figures under {@code job}. */
  void emit(List<Sample> samples, String job) {
    samples.add(new Sample(job, "seconds", seconds, "s"));
    if (bytes != null) {
      samples.add(new Sample(job, "bytes", bytes, "B"));
    }
    Double rate = mibPerS;
    if (rate == null && bytes != null) {
      rate = seconds > 0 ? bytes / seconds / MIB : Double.NaN;
    }
    if (rate != null) {
      samples.add(new Sample(job, "mib_per_s", rate, "MiB/s"));
    }
    if (iops != null) {
      samples.add(new Sample(job, "iops", iops, "IO/s"));
    } else if (rate != null && blockBytes > 0) {
      samples.add(new Sample(job, "iops", rate / (blockBytes / MIB), "IO/s"));
    }
    fio.values().forEach(m -> samples.add(new Sample(job, m.name(), m.value(), m.unit())));
    printed.values().forEach(m -> samples.add(new Sample(job, m.name(), m.value(), m.unit())));
  }
}
