package io.tunelab.store;

import io.tunelab.TunelabException;
import io.tunelab.workload.Sample;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which job and metric a report loads.
 *
 * @param job null for {@code all} when recorded, else the first job by name
 * @param metric null for {@link ReportData#mainMetric()}; loaded per trial with {@code seconds}
 */
public record ReportSelection(String job, String metric) {
  /** The defaults: the aggregate job and the main metric. */
  public static final ReportSelection DEFAULT = new ReportSelection(null, null);

  /**
   * The job asked for, or {@code all} when recorded, else the first by name; null if none. An
   * unknown job fails with exit code 2 and a message listing the jobs.
   *
   * @param experiment the experiment as messages name it
   * @param unitsByJob every job with statistics and the units of its metrics, sorted by name
   */
  String job(String experiment, Map<String, Map<String, String>> unitsByJob) {
    if (job == null) {
      if (unitsByJob.containsKey(Sample.AGGREGATE_JOB)) {
        return Sample.AGGREGATE_JOB;
      }
      return unitsByJob.isEmpty() ? null : unitsByJob.keySet().iterator().next();
    }
    if (!unitsByJob.containsKey(job)) {
      throw unknown(experiment, "job", job, "", unitsByJob.keySet());
    }
    return job;
  }

  /**
   * The metrics loaded per trial: {@code seconds} and the one asked for (or the main one). An
   * unknown metric fails with exit code 2 and a message listing the metrics of {@code job}.
   */
  List<String> metrics(String experiment, String job, Map<String, String> units) {
    Set<String> metrics = new TreeSet<>();
    metrics.add("seconds");
    if (metric == null) {
      if (units.containsKey("mib_per_s")) {
        metrics.add("mib_per_s");
      } else if (!units.containsKey("seconds") && !units.isEmpty()) {
        metrics.add(units.keySet().iterator().next());
      }
    } else if (units.containsKey(metric)) {
      metrics.add(metric);
    } else {
      throw unknown(experiment, "metric", metric, " for job " + job, units.keySet());
    }
    return List.copyOf(metrics);
  }

  private static TunelabException unknown(
      String experiment, String what, String asked, String where, Set<String> known) {
    return new TunelabException(
        TunelabException.BAD_INPUT,
        experiment
            + " has no "
            + what
            + " '"
            + asked
            + "'"
            + (known.isEmpty()
                ? ": nothing was measured yet"
                : where + " (" + what + "s: " + String.join(", ", known) + ")"));
  }
}
