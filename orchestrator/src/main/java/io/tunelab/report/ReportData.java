package io.tunelab.report;

import java.util.List;
import java.util.Map;

/**
 * What the classic report shows of one experiment, loaded from the store.
 *
 * @param job the job whose samples are reported: {@code all} (the aggregate of concurrent jobs)
 *     when recorded, else the only job; null when nothing was measured yet
 * @param paramNames every parameter (axis name as written), in axis order
 * @param cells by ordinal
 */
public record ReportData(
    long experimentId,
    String name,
    String status,
    List<Host> hosts,
    Tally tally,
    String job,
    List<String> paramNames,
    List<Cell> cells) {

  /** A host the experiment ran on. */
  public record Host(String role, String host, String kernelRelease) {}

  /** Trials of the experiment by status, warm-up trials included. */
  public record Tally(int ok, int failed, int skipped, int pending, int running) {
    public int total() {
      return ok + failed + skipped + pending + running;
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
      Map<String, Stat> stats) {}

  /** One repetition; {@code seconds} is the reported job's time, null when not measured. */
  public record Trial(int rep, boolean warmup, String status, Double seconds, String error) {}

  /** The statistics of one metric over the ok, non-warm-up trials of a cell. */
  public record Stat(String unit, int n, double mean, double stddevPop) {}
}
