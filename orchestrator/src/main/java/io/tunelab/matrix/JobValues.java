package io.tunelab.matrix;

import java.util.regex.Pattern;

/**
 * What a job's single-valued fields may hold. The loader checks literals and parameter values with
 * these; the workload planner checks captured values, known only when the experiment runs.
 */
public final class JobValues {
  /** Most processes one job may start. */
  public static final int MAX_PROCESSES = 10_000;

  private static final Pattern IONICE = Pattern.compile("none|idle|(be|rt)/[0-7]");
  private static final Pattern CPUS =
      Pattern.compile("\\d{1,5}(-\\d{1,5})?(,\\d{1,5}(-\\d{1,5})?)*");

  private JobValues() {}

  /** Why {@code text} is not an ionice class, or null. */
  public static String ioniceProblem(String text) {
    return IONICE.matcher(text).matches()
        ? null
        : "'" + text + "' is not an ionice class: none, idle, be/0 to be/7 or rt/0 to rt/7";
  }

  /** Why {@code text} is not a niceness, or null. */
  public static String niceProblem(String text) {
    try {
      int n = Integer.parseInt(text);
      if (n >= -20 && n <= 19) {
        return null;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    return "'" + text + "' is not a niceness: a whole number from -20 to 19";
  }

  /** Why {@code text} is not a CPU list as taskset takes it ({@code 0-3,6}), or null. */
  public static String cpusProblem(String text) {
    String why = "'" + text + "' is not a CPU list: CPU numbers and ranges, e.g. 0-3,6";
    if (!CPUS.matcher(text).matches()) {
      return why;
    }
    for (String part : text.split(",")) {
      String[] range = part.split("-");
      if (range.length == 2 && Integer.parseInt(range[0]) > Integer.parseInt(range[1])) {
        return why;
      }
    }
    return null;
  }

  /** Why {@code text} is not a duration ({@link Durations}), or null. */
  public static String durationProblem(String text) {
    try {
      Durations.parse(text);
      return null;
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
  }

  /** Why {@code text} is not a number of processes, or null. */
  public static String processesProblem(String text) {
    try {
      int n = Integer.parseInt(text);
      if (n >= 1 && n <= MAX_PROCESSES) {
        return null;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    return "'" + text + "' is not a whole number from 1 to " + MAX_PROCESSES;
  }
}
