package io.tunelab.report;

import io.tunelab.store.ReportData;
import java.util.List;
import java.util.Map;

/**
 * The per-experiment tables of {@code tunelab report} in their default shape, the classic SCST
 * read-ahead tables posted to kernel mailing lists: one block per case, one row per remaining
 * parameter value, each repetition's seconds, then mean MiB/s, its population standard deviation
 * and mean IOPS. {@link Report} builds other shapes; this is the one {@code run} prints at the end.
 */
public final class ClassicReport {
  /** The axis that names cases. */
  public static final String CASE_AXIS = Layout.CASE_AXIS;

  private ClassicReport() {}

  /** The report as fixed-width text, ending with a newline. */
  public static String render(ReportData data) {
    return ReportFormat.TEXT.render(Report.build(data, Report.Options.CLASSIC));
  }

  /** {@code name (experiment 3, finished): 12 of 18 trials ok; 6 pending}. */
  static String headline(ReportData data) {
    return Report.headline(data);
  }

  /** Axis names as column headers: see {@link AxisNames}. */
  static Map<String, String> shortNames(List<String> names) {
    return AxisNames.shorten(names);
  }
}
