package io.tunelab.view;

import java.time.Duration;

/**
 * A run's progress in one line: the bar a terminal redraws in place, and the tail of the plain
 * lines written everywhere else.
 *
 * @param done trials of this run that ended (ok or failed)
 * @param total trials this run has to do
 * @param eta the time still needed, null before the first trial ended
 * @param current the trial running now ({@code read_ahead_kb=512 rep 2}), or null
 */
public record ProgressLine(
    int done, int total, int failed, Duration elapsed, Duration eta, String current) {
  private static final int CELLS = 20;

  /**
   * The time still needed: the mean wall time of the {@code ended} trials so far times the {@code
   * left} ones (the running one included), less what the running one has already taken. Null before
   * any trial ended: nothing to go by yet.
   */
  public static Duration eta(Duration wallOfEnded, int ended, int left, Duration currentSoFar) {
    if (ended <= 0) {
      return null;
    }
    Duration rest = wallOfEnded.multipliedBy(left).dividedBy(ended).minus(currentSoFar);
    return rest.isNegative() ? Duration.ZERO : rest;
  }

  /**
   * {@code [#######-------------] 7/18, 1 failed, 3m12s elapsed, eta 5m30s: read_ahead_kb=512 rep
   * 2}, cut to fit in {@code width} columns without wrapping.
   */
  public String bar(int width) {
    int filled = total <= 0 ? CELLS : (int) ((long) CELLS * done / total);
    String line =
        "["
            + "#".repeat(filled)
            + "-".repeat(CELLS - filled)
            + "] "
            + done
            + "/"
            + total
            + ", "
            + tail()
            + (current == null ? "" : ": " + current);
    int room = Math.max(10, width - 1);
    return line.length() <= room ? line : line.substring(0, room - 1) + "…";
  }

  /** {@code 1 failed, 3m12s elapsed, eta 5m30s}: what plain trial lines end with. */
  public String tail() {
    return failed
        + " failed, "
        + DurationFormat.format(elapsed)
        + " elapsed, eta "
        + (eta == null ? "?" : DurationFormat.format(eta));
  }
}
