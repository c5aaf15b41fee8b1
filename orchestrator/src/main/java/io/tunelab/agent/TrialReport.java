package io.tunelab.agent;

import io.tunelab.knob.ReadResult;
import io.tunelab.workload.JobResult;
import io.tunelab.workload.Stopped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a host reported for its part of a trial ({@code wait}, or a {@code run}).
 *
 * @param status 0 when every process exited 0 or was stopped in time by the duration, else 1
 * @param processes in the order they were started
 * @param before the host's health when the trial arrived; null unless asked for and in this answer
 * @param after the host's health once the trial had ended; null unless asked for and in this answer
 * @param knobs the knobs read back with {@code after}
 */
public record TrialReport(
    int status,
    List<ProcessReport> processes,
    List<MonitorReport> monitors,
    Health before,
    Health after,
    Map<String, ReadResult> knobs) {

  public TrialReport {
    processes = List.copyOf(processes);
    monitors = List.copyOf(monitors);
    knobs = Map.copyOf(knobs);
  }

  /** A report without health snapshots. */
  public TrialReport(int status, List<ProcessReport> processes, List<MonitorReport> monitors) {
    this(status, processes, monitors, null, null, Map.of());
  }

  static TrialReport from(Answer answer) {
    RunResult run = RunResult.from(answer);
    Map<String, Stopped> stopped = new HashMap<>();
    for (String[] r : answer.uniqueRows("stopped", 3).values()) {
      stopped.put(
          r[1],
          switch (r[2]) {
            case "INT" -> Stopped.INTERRUPTED;
            case "KILL" -> Stopped.KILLED;
            default -> throw answer.malformed("stopped " + r[1] + " " + r[2]);
          });
    }
    Map<String, Scheduling> sched = new HashMap<>();
    for (String[] r : answer.uniqueRows("sched", 5).values()) {
      sched.put(r[1], new Scheduling(integer(answer, r[2]), blank(r[3]), blank(r[4])));
    }
    Map<String, Long> cut = new HashMap<>();
    for (String[] r : answer.uniqueRows("cut", 3).values()) {
      Integer dropped = integer(answer, r[2]);
      cut.put(r[1], dropped == null ? 0L : dropped);
    }
    List<ProcessReport> processes = new ArrayList<>();
    for (JobResult job : run.jobs()) {
      processes.add(
          new ProcessReport(
              job,
              sched.getOrDefault(job.name(), Scheduling.UNKNOWN),
              stopped.getOrDefault(job.name(), Stopped.NO),
              cut.getOrDefault(job.name(), 0L)));
    }
    Map<String, List<String>> out = lines(answer, "out");
    Map<String, List<String>> err = lines(answer, "err");
    Map<String, List<String>> stat = lines(answer, "stat");
    List<MonitorReport> monitors = new ArrayList<>();
    for (String[] r : answer.uniqueRows("monitor", 3).values()) {
      monitors.add(
          new MonitorReport(
              r[1],
              integer(answer, r[2]),
              out.getOrDefault(r[1], List.of()),
              err.getOrDefault(r[1], List.of()),
              stat.getOrDefault(r[1], List.of())));
    }
    return new TrialReport(
        answer.status(),
        processes,
        monitors,
        Health.in(answer, "before"),
        Health.in(answer, "after"),
        KnobReadBack.of(answer));
  }

  private static Map<String, List<String>> lines(Answer answer, String kind) {
    Map<String, List<String>> byName = new LinkedHashMap<>();
    answer
        .rows(kind, 3)
        .forEach(
            r -> byName.computeIfAbsent(r[1], n -> new ArrayList<>()).add(Answer.relayed(r[2])));
    return byName;
  }

  private static Integer integer(Answer answer, String text) {
    if (text.isEmpty()) {
      return null;
    }
    try {
      return Integer.valueOf(text.trim());
    } catch (NumberFormatException e) {
      throw answer.malformed("not a number: " + text);
    }
  }

  private static String blank(String text) {
    return text.isBlank() ? null : text.trim();
  }
}
