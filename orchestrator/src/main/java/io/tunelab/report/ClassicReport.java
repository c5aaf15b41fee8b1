package io.tunelab.report;

import io.tunelab.report.ReportData.Cell;
import io.tunelab.report.ReportData.Stat;
import io.tunelab.report.ReportData.Tally;
import io.tunelab.report.ReportData.Trial;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The per-experiment tables of {@code tunelab report}, shaped like the classic SCST read-ahead
 * tables posted to kernel mailing lists: one block per case, one row per remaining parameter value,
 * each repetition's seconds, then mean MiB/s, its population standard deviation and mean IOPS.
 *
 * <p>Blocks are the values of the {@code case} axis when there is one, else of every axis but the
 * last. A workload measured in seconds only shows the mean and deviation of the time instead.
 */
public final class ClassicReport {
  /** The axis that names cases. */
  public static final String CASE_AXIS = "case";

  private ClassicReport() {}

  /** The report, ending with a newline. */
  public static String render(ReportData data) {
    StringBuilder out = new StringBuilder();
    out.append(headline(data)).append('\n');
    if (!data.hosts().isEmpty()) {
      List<String> hosts = new ArrayList<>();
      for (ReportData.Host h : data.hosts()) {
        String kernel = h.kernelRelease() == null ? "" : " " + h.kernelRelease();
        hosts.add(h.role() + "=" + h.host() + kernel);
      }
      out.append("hosts: ").append(String.join(", ", hosts)).append('\n');
    }
    if (data.job() != null && !data.job().equals("all")) {
      out.append("job: ").append(data.job()).append('\n');
    }
    appendBlocks(out, data);
    appendFailures(out, data);
    return out.toString();
  }

  /** {@code name (experiment 3, finished): 12 of 18 trials ok; 6 pending}. */
  static String headline(ReportData data) {
    Tally t = data.tally();
    StringBuilder line =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "%s (experiment %d, %s): %d of %d trials ok",
                data.name(),
                data.experimentId(),
                data.status(),
                t.ok(),
                t.total()));
    List<String> rest = new ArrayList<>();
    addCount(rest, t.failed(), "failed");
    addCount(rest, t.skipped(), "skipped");
    addCount(rest, t.pending(), "pending");
    addCount(rest, t.running(), "running");
    if (!rest.isEmpty()) {
      line.append("; ").append(String.join(", ", rest));
    }
    return line.toString();
  }

  private static void addCount(List<String> parts, int count, String what) {
    if (count > 0) {
      parts.add(count + " " + what);
    }
  }

  private static void appendBlocks(StringBuilder out, ReportData data) {
    List<String> params = data.paramNames();
    List<String> blockAxes = new ArrayList<>();
    if (params.contains(CASE_AXIS)) {
      blockAxes.add(CASE_AXIS);
    } else if (params.size() > 1) {
      blockAxes.addAll(params.subList(0, params.size() - 1));
    }
    List<String> rowAxes = new ArrayList<>(params);
    rowAxes.removeAll(blockAxes);
    Map<String, String> shortName = shortNames(params);

    Columns columns = Columns.of(data.cells());
    List<String> header = new ArrayList<>();
    List<Boolean> right = new ArrayList<>();
    for (String axis : rowAxes) {
      header.add(shortName.get(axis));
      right.add(allNumbers(data.cells(), axis));
    }
    columns.header(header, right);
    if (!data.cells().isEmpty()) {
      out.append(columns.legend(hasWarmups(data.cells()))).append('\n');
    }

    Map<String, List<List<String>>> blocks = new LinkedHashMap<>();
    for (Cell cell : data.cells()) {
      List<String> row = new ArrayList<>();
      for (String axis : rowAxes) {
        row.add(cell.params().getOrDefault(axis, "-"));
      }
      columns.values(cell, row);
      blocks
          .computeIfAbsent(blockTitle(cell, blockAxes, shortName), k -> new ArrayList<>())
          .add(row);
    }

    int[] width = new int[header.size()];
    for (int i = 0; i < width.length; i++) {
      width[i] = header.get(i).length();
    }
    for (List<List<String>> rows : blocks.values()) {
      for (List<String> row : rows) {
        for (int i = 0; i < width.length; i++) {
          width[i] = Math.max(width[i], row.get(i).length());
        }
      }
    }
    for (Map.Entry<String, List<List<String>>> block : blocks.entrySet()) {
      out.append('\n');
      if (!block.getKey().isEmpty()) {
        out.append(block.getKey()).append('\n');
      }
      out.append(line(header, width, right));
      for (List<String> row : block.getValue()) {
        out.append(line(row, width, right));
      }
    }
  }

  // Numeric parameters (threads, iodepth) line up on the right like the measurements.
  private static boolean allNumbers(List<Cell> cells, String axis) {
    return cells.stream()
        .map(c -> c.params().get(axis))
        .allMatch(v -> v != null && v.matches("-?\\d+(\\.\\d+)?"));
  }

  private static boolean hasWarmups(List<Cell> cells) {
    return cells.stream().flatMap(c -> c.trials().stream()).anyMatch(Trial::warmup);
  }

  private static String blockTitle(
      Cell cell, List<String> blockAxes, Map<String, String> shortName) {
    if (blockAxes.equals(List.of(CASE_AXIS))) {
      return "case: " + cell.params().getOrDefault(CASE_AXIS, "-");
    }
    List<String> parts = new ArrayList<>();
    for (String axis : blockAxes) {
      parts.add(shortName.get(axis) + "=" + cell.params().getOrDefault(axis, "-"));
    }
    return String.join("  ", parts);
  }

  private static String line(List<String> values, int[] width, List<Boolean> right) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        line.append("  ");
      }
      String v = values.get(i);
      String pad = " ".repeat(width[i] - v.length());
      line.append(right.get(i) ? pad + v : v + pad);
    }
    return line.toString().stripTrailing() + "\n";
  }

  private static void appendFailures(StringBuilder out, ReportData data) {
    List<String> lines = new ArrayList<>();
    for (Cell cell : data.cells()) {
      for (Trial t : cell.trials()) {
        if (t.status().equals("failed")) {
          String error =
              t.error() == null ? "" : ": " + t.error().strip().lines().findFirst().orElse("");
          lines.add(
              "  cell "
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
    if (!lines.isEmpty()) {
      out.append("\nfailed trials:\n");
      for (String l : lines) {
        out.append(l).append('\n');
      }
    }
  }

  /**
   * Axis names as column headers: a knob axis such as {@code disk.block.${dev}.read_ahead_kb} is
   * shown as {@code read_ahead_kb}, unless two axes would then share a name.
   */
  static Map<String, String> shortNames(List<String> names) {
    Map<String, String> shortened = new LinkedHashMap<>();
    Map<String, Integer> uses = new HashMap<>();
    for (String name : names) {
      int cut = Math.max(name.lastIndexOf('/'), name.lastIndexOf('.'));
      String s = cut >= 0 && cut < name.length() - 1 ? name.substring(cut + 1) : name;
      shortened.put(name, s);
      uses.merge(s, 1, Integer::sum);
    }
    shortened.replaceAll((name, s) -> uses.get(s) > 1 ? name : s);
    return shortened;
  }

  /** The measurement columns: repetitions, then throughput or time statistics. */
  private record Columns(int reps, boolean throughput, boolean iops) {
    static Columns of(List<Cell> cells) {
      int reps = 0;
      boolean throughput = false;
      boolean iops = false;
      for (Cell cell : cells) {
        reps = Math.max(reps, measured(cell).size());
        throughput |= cell.stats().containsKey("mib_per_s");
        iops |= cell.stats().containsKey("iops");
      }
      return new Columns(reps, throughput, iops);
    }

    void header(List<String> header, List<Boolean> right) {
      for (int r = 1; r <= reps; r++) {
        header.add("t" + r);
      }
      if (throughput) {
        header.add("MiB/s");
        header.add("std");
      } else {
        header.add("mean(s)");
        header.add("std(s)");
      }
      if (iops) {
        header.add("IOPS");
      }
      while (right.size() < header.size()) {
        right.add(true);
      }
    }

    /** One line saying what the columns hold. */
    String legend(boolean warmups) {
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
      if (warmups) {
        text.append("; warm-up trials not shown");
      }
      return text.toString();
    }

    void values(Cell cell, List<String> row) {
      List<Trial> measured = measured(cell);
      for (int r = 0; r < reps; r++) {
        row.add(r < measured.size() ? time(measured.get(r)) : "");
      }
      Stat main = cell.stats().get(throughput ? "mib_per_s" : "seconds");
      row.add(main == null ? "-" : fixed(main.mean()));
      row.add(main == null ? "-" : fixed(main.stddevPop()));
      if (iops) {
        Stat s = cell.stats().get("iops");
        row.add(s == null ? "-" : fixed(s.mean()));
      }
    }

    private static List<Trial> measured(Cell cell) {
      return cell.trials().stream().filter(t -> !t.warmup()).toList();
    }

    private static String time(Trial t) {
      return switch (t.status()) {
        case "ok" -> t.seconds() == null ? "?" : fixed(t.seconds());
        case "failed" -> "fail";
        case "skipped" -> "skip";
        default -> "-";
      };
    }
  }

  private static String fixed(double value) {
    return String.format(Locale.ROOT, "%.3f", value);
  }
}
