package io.tunelab.store;

import io.tunelab.TunelabException;
import io.tunelab.workload.Sample;
import io.tunelab.yaml.DidYouMean;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which jobs and metrics a report loads. One job and at most one metric give the usual report; more
 * of either put their means side by side: every job with every asked metric it recorded.
 *
 * @param jobs as asked, in order; empty for {@code all} when recorded, else the first job by name
 * @param metrics as asked, in order; empty for {@link ReportData#mainMetric()}, or side by side for
 *     {@code seconds} and {@code mib_per_s} where recorded
 */
public record ReportSelection(List<String> jobs, List<String> metrics) {
  /** The defaults: the aggregate job and the main metric. */
  public static final ReportSelection DEFAULT = new ReportSelection(List.of(), List.of());

  /** What several jobs show side by side when no metric is named. */
  static final List<String> SIDE_BY_SIDE = List.of("seconds", "mib_per_s");

  public ReportSelection {
    jobs = List.copyOf(jobs);
    metrics = List.copyOf(metrics);
    twice("--job", jobs);
    twice("--metric", metrics);
  }

  /** One job and one metric, each null for the default. */
  public static ReportSelection of(String job, String metric) {
    return new ReportSelection(
        job == null ? List.of() : List.of(job), metric == null ? List.of() : List.of(metric));
  }

  /**
   * {@code --job} and {@code --metric} as typed: comma-separated lists (no job or metric name holds
   * a comma), each null for the default. An empty entry fails with exit code 2.
   */
  public static ReportSelection parse(String jobs, String metrics) {
    return new ReportSelection(split("--job", jobs), split("--metric", metrics));
  }

  /** Whether several jobs or metrics are shown side by side. */
  public boolean sideBySide() {
    return jobs.size() > 1 || metrics.size() > 1;
  }

  /**
   * One job to load: the metrics shown, and those loaded per trial (the shown ones, and {@code
   * seconds} for the classic table's times).
   */
  public record Pick(String job, List<String> shown, List<String> loaded) {}

  /**
   * The jobs to load, in the order asked. An unknown job or metric fails with exit code 2 and a
   * message listing what there is.
   *
   * @param experiment the experiment as messages name it
   * @param unitsByJob every job with statistics and the units of its metrics, sorted by name
   */
  public List<Pick> picks(String experiment, Map<String, Map<String, String>> unitsByJob) {
    if (!sideBySide()) {
      String job = job(experiment, jobs.isEmpty() ? null : jobs.get(0), unitsByJob);
      Map<String, String> units = job == null ? Map.of() : unitsByJob.get(job);
      return List.of(new Pick(job, metrics, loaded(experiment, job, units)));
    }
    if (unitsByJob.isEmpty()) {
      throw new TunelabException(
          TunelabException.BAD_INPUT, experiment + " has nothing measured yet");
    }
    List<String> asked = new ArrayList<>();
    if (jobs.isEmpty()) {
      asked.add(job(experiment, null, unitsByJob));
    } else {
      for (String j : jobs) {
        asked.add(job(experiment, j, unitsByJob));
      }
    }
    Set<String> offered = new TreeSet<>();
    for (String j : asked) {
      offered.addAll(unitsByJob.get(j).keySet());
    }
    for (String m : metrics) {
      if (!offered.contains(m)) {
        throw unknownMetric(experiment, m, " for " + jobsNamed(asked), offered);
      }
    }
    List<Pick> picks = new ArrayList<>();
    for (String j : asked) {
      Map<String, String> units = unitsByJob.get(j);
      List<String> wanted = metrics.isEmpty() ? SIDE_BY_SIDE : metrics;
      List<String> shown = wanted.stream().filter(units::containsKey).toList();
      if (shown.isEmpty()) {
        String what =
            metrics.isEmpty()
                ? "neither seconds nor mib_per_s: name its metrics with --metric"
                : "none of the metrics " + String.join(", ", metrics);
        throw new TunelabException(
            TunelabException.BAD_INPUT,
            "job "
                + j
                + " of "
                + experiment
                + " has "
                + what
                + " (metrics: "
                + String.join(", ", units.keySet())
                + ")");
      }
      picks.add(new Pick(j, shown, shown));
    }
    return picks;
  }

  /** The job asked for, or {@code all} when recorded, else the first by name; null if none. */
  private static String job(
      String experiment, String asked, Map<String, Map<String, String>> unitsByJob) {
    if (asked == null) {
      if (unitsByJob.containsKey(Sample.AGGREGATE_JOB)) {
        return Sample.AGGREGATE_JOB;
      }
      return unitsByJob.isEmpty() ? null : unitsByJob.keySet().iterator().next();
    }
    if (!unitsByJob.containsKey(asked)) {
      throw JobNames.unknown(experiment, asked, unitsByJob.keySet());
    }
    return asked;
  }

  /**
   * The metrics loaded per trial for one metric or none: {@code seconds} and the one asked for (or
   * the main one).
   */
  private List<String> loaded(String experiment, String job, Map<String, String> units) {
    Set<String> loaded = new TreeSet<>();
    loaded.add("seconds");
    String metric = metrics.isEmpty() ? null : metrics.get(0);
    if (metric == null) {
      if (units.containsKey("mib_per_s")) {
        loaded.add("mib_per_s");
      } else if (!units.containsKey("seconds") && !units.isEmpty()) {
        loaded.add(units.keySet().iterator().next());
      }
    } else if (units.containsKey(metric)) {
      loaded.add(metric);
    } else {
      throw unknownMetric(experiment, metric, " for job " + job, units.keySet());
    }
    return List.copyOf(loaded);
  }

  private static String jobsNamed(List<String> jobs) {
    return (jobs.size() == 1 ? "job " : "jobs ") + String.join(", ", jobs);
  }

  private static TunelabException unknownMetric(
      String experiment, String asked, String where, Set<String> known) {
    return new TunelabException(
        TunelabException.BAD_INPUT,
        experiment
            + " has no metric '"
            + asked
            + "'"
            + (known.isEmpty()
                ? ": nothing was measured yet"
                : where + " (metrics: " + String.join(", ", known) + ")")
            + DidYouMean.hint(asked, known));
  }

  private static List<String> split(String option, String text) {
    if (text == null) {
      return List.of();
    }
    List<String> names = new ArrayList<>();
    for (String part : text.split(",", -1)) {
      String name = part.strip();
      if (name.isEmpty()) {
        throw new TunelabException(
            TunelabException.BAD_INPUT,
            option + " takes names separated by commas, not '" + text + "'");
      }
      names.add(name);
    }
    return names;
  }

  private static void twice(String option, List<String> names) {
    if (new LinkedHashSet<>(names).size() != names.size()) {
      throw new TunelabException(
          TunelabException.BAD_INPUT, option + " names the same one twice: " + names);
    }
  }
}
