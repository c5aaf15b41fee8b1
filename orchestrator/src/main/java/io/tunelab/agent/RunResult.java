package io.tunelab.agent;

import io.tunelab.workload.JobResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a {@code run} reported: one result per job, in the order the jobs were given.
 *
 * @param status 0 when every job exited 0, else 1
 */
public record RunResult(int status, List<JobResult> jobs) {

  public RunResult {
    jobs = List.copyOf(jobs);
  }

  static RunResult from(Answer answer) {
    Map<String, List<String>> out = tails(answer, "out");
    Map<String, List<String>> err = tails(answer, "err");
    List<JobResult> jobs = new ArrayList<>();
    for (String[] r : answer.uniqueRows("job", 5).values()) {
      try {
        jobs.add(
            new JobResult(
                r[1],
                Integer.parseInt(r[2]),
                Long.parseLong(r[3]),
                Long.parseLong(r[4]),
                out.getOrDefault(r[1], List.of()),
                err.getOrDefault(r[1], List.of())));
      } catch (NumberFormatException e) {
        throw answer.malformed("job " + r[1] + ": " + e.getMessage());
      }
    }
    return new RunResult(answer.status(), jobs);
  }

  /** A job's last output lines by job name. */
  private static Map<String, List<String>> tails(Answer answer, String kind) {
    Map<String, List<String>> tails = new LinkedHashMap<>();
    answer
        .rows(kind, 3)
        .forEach(
            r -> tails.computeIfAbsent(r[1], n -> new ArrayList<>()).add(Answer.relayed(r[2])));
    return tails;
  }
}
