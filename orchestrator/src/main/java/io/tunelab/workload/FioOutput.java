package io.tunelab.workload;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;

/**
 * What fio's {@code --output-format=json} document says, as metrics: per direction ({@code read_},
 * {@code write_}, {@code trim_}, only those that moved bytes) bytes, MiB/s, IOPS, mean latency and
 * completion-latency percentiles; fio's CPU; and the totals over directions.
 *
 * <p>A document with several fio jobs (numjobs without group_reporting, or several sections) is
 * aggregated: bytes, bandwidth and IOPS are summed, {@code lat_mean_us} is the mean weighted by
 * each job's I/O count, each percentile is the maximum over the jobs (fio's JSON keeps no histogram
 * to merge, and the slowest job's p99 is an upper bound of the merged p99, never an
 * understatement), and CPU is the mean over the jobs.
 *
 * @param metrics what the document says, in a fixed order; empty without a document
 * @param fioJobs how many entries fio's {@code jobs} array had
 * @param error fio's own error line when it printed no JSON or a job reported an error; else null
 */
public record FioOutput(List<ParsedMetric> metrics, int fioJobs, String error) {
  private static final String[] DIRECTIONS = {"read", "write", "trim"};
  private static final String[][] PERCENTILES = {
    {"50.000000", "clat_p50_us"},
    {"95.000000", "clat_p95_us"},
    {"99.000000", "clat_p99_us"},
    {"99.900000", "clat_p999_us"},
  };
  private static final ObjectMapper JSON = new ObjectMapper();

  public FioOutput {
    metrics = List.copyOf(metrics);
  }

  /** True when the trial must fail with {@link #error}. */
  public boolean failed() {
    return error != null;
  }

  /**
   * fio's JSON document as it printed it (the notes before it left out), to keep with the trial;
   * null when there is none.
   */
  public static String document(List<String> stdout) {
    int start = 0;
    while (start < stdout.size() && !stdout.get(start).startsWith("{")) {
      start++;
    }
    return start < stdout.size()
        ? String.join("\n", stdout.subList(start, stdout.size())) + "\n"
        : null;
  }

  /**
   * Reads fio's stdout, which may start with notes (e.g. "queue depth will be capped at 1" or "fio:
   * terminating on signal 2") before the JSON document; {@code stderr} only supplies the error
   * line.
   */
  public static FioOutput parse(List<String> stdout, List<String> stderr) {
    int start = 0;
    while (start < stdout.size() && !stdout.get(start).startsWith("{")) {
      start++;
    }
    JsonNode doc = null;
    if (start < stdout.size()) {
      try {
        // Reads the first JSON value only; anything fio prints after it is ignored.
        doc = JSON.readTree(String.join("\n", stdout.subList(start, stdout.size())));
      } catch (JsonProcessingException e) {
        doc = null;
      }
    }
    List<String> notes = stdout.subList(0, start);
    if (doc == null || !doc.path("jobs").isArray()) {
      return new FioOutput(List.of(), 0, errorLine(stderr, notes, "fio printed no JSON document"));
    }
    JsonNode jobs = doc.path("jobs");
    String error = null;
    for (JsonNode job : jobs) {
      int code = job.path("error").asInt(0);
      if (code != 0 && error == null) {
        String fallback = "fio job " + job.path("jobname").asText() + " failed with error " + code;
        error = errorLine(stderr, notes, fallback);
      }
    }
    return new FioOutput(metrics(jobs), jobs.size(), error);
  }

  private static List<ParsedMetric> metrics(JsonNode jobs) {
    List<ParsedMetric> out = new ArrayList<>();
    double bytes = 0;
    double bandwidth = 0;
    double iops = 0;
    for (String dir : DIRECTIONS) {
      Direction d = new Direction();
      for (JsonNode job : jobs) {
        d.add(job.path(dir));
      }
      if (d.bytes > 0) {
        d.emit(dir + "_", out);
        bytes += d.bytes;
        bandwidth += d.bandwidth;
        iops += d.iops;
      }
    }
    double usr = 0;
    double sys = 0;
    for (JsonNode job : jobs) {
      usr += job.path("usr_cpu").asDouble();
      sys += job.path("sys_cpu").asDouble();
    }
    if (!jobs.isEmpty()) {
      out.add(new ParsedMetric("cpu_usr_pct", usr / jobs.size(), "%"));
      out.add(new ParsedMetric("cpu_sys_pct", sys / jobs.size(), "%"));
    }
    out.add(new ParsedMetric("bytes", bytes, "B"));
    out.add(new ParsedMetric("mib_per_s", bandwidth / 1048576.0, "MiB/s"));
    out.add(new ParsedMetric("iops", iops, "IO/s"));
    return out;
  }

  /** One direction summed over the document's jobs. */
  private static final class Direction {
    double bytes;
    double bandwidth;
    double iops;
    double latWeighted;
    double latCount;
    final Double[] percentiles = new Double[PERCENTILES.length];

    void add(JsonNode d) {
      if (d.path("io_bytes").asLong() <= 0) {
        return;
      }
      bytes += d.path("io_bytes").asLong();
      bandwidth += d.path("bw_bytes").asDouble();
      iops += d.path("iops").asDouble();
      JsonNode lat = d.path("lat_ns");
      latWeighted += lat.path("mean").asDouble() * lat.path("N").asDouble();
      latCount += lat.path("N").asDouble();
      JsonNode pct = d.path("clat_ns").path("percentile");
      for (int i = 0; i < PERCENTILES.length; i++) {
        JsonNode v = pct.get(PERCENTILES[i][0]);
        if (v != null && v.isNumber()) {
          double us = v.asDouble() / 1000.0;
          percentiles[i] = percentiles[i] == null ? us : Math.max(percentiles[i], us);
        }
      }
    }

    void emit(String prefix, List<ParsedMetric> out) {
      out.add(new ParsedMetric(prefix + "bytes", bytes, "B"));
      out.add(new ParsedMetric(prefix + "mib_per_s", bandwidth / 1048576.0, "MiB/s"));
      out.add(new ParsedMetric(prefix + "iops", iops, "IO/s"));
      if (latCount > 0) {
        out.add(new ParsedMetric(prefix + "lat_mean_us", latWeighted / latCount / 1000.0, "us"));
      }
      for (int i = 0; i < PERCENTILES.length; i++) {
        if (percentiles[i] != null) {
          out.add(new ParsedMetric(prefix + PERCENTILES[i][1], percentiles[i], "us"));
        }
      }
    }
  }

  /**
   * fio's own complaint: its last {@code fio: …} line (stderr first, then the notes before the
   * JSON), else the last non-blank line of stderr, else {@code fallback}.
   */
  private static String errorLine(List<String> stderr, List<String> notes, String fallback) {
    for (List<String> lines : List.of(stderr, notes)) {
      for (int i = lines.size() - 1; i >= 0; i--) {
        if (lines.get(i).startsWith("fio: ")) {
          return lines.get(i).trim();
        }
      }
    }
    for (int i = stderr.size() - 1; i >= 0; i--) {
      if (!stderr.get(i).isBlank()) {
        return stderr.get(i).trim();
      }
    }
    return fallback;
  }
}
