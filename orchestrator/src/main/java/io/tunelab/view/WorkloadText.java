package io.tunelab.view;

import io.tunelab.matrix.MatrixException;
import io.tunelab.matrix.Workload;
import io.tunelab.plan.Cell;
import io.tunelab.workload.JobPlan;
import io.tunelab.workload.ProcessPlan;
import io.tunelab.workload.WorkloadPlan;
import io.tunelab.workload.WorkloadPlanner;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** A cell's workload as {@code plan --workload} shows it: one line per process it starts. */
public final class WorkloadText {
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_@%+=:,./${}\\[\\]-]+");

  private WorkloadText() {}

  /** Appends the lines of {@code cell}'s first repetition to {@code line}. */
  public static void append(
      StringBuilder line, Workload workload, Cell cell, Set<String> captured) {
    WorkloadPlan plan;
    try {
      plan = WorkloadPlanner.preview(workload, cell.trialVars(Map.of(), 1), captured);
    } catch (MatrixException e) {
      line.append("\n          workload: resolved when the trial runs (").append(e.getMessage());
      line.append(')');
      return;
    }
    for (JobPlan job : plan.jobs()) {
      for (ProcessPlan p : job.processes()) {
        line.append("\n          ").append(p.name()).append(" on ").append(job.role());
        if (job.ionice() != null) {
          line.append(" ionice ").append(job.ionice());
        }
        if (job.nice() != null) {
          line.append(" nice ").append(job.nice());
        }
        if (job.cpus() != null) {
          line.append(" cpus ").append(job.cpus());
        }
        // A job's own limits, where they are not the workload's.
        if (job.duration() != null && !job.duration().equals(plan.duration())) {
          line.append(" duration ").append(seconds(job.duration()));
        }
        if (job.timeout() != null && !job.timeout().equals(plan.timeout())) {
          line.append(" timeout ").append(seconds(job.timeout()));
        }
        line.append(": ")
            .append(p.argv().stream().map(WorkloadText::word).collect(Collectors.joining(" ")));
        if (p.stdinText() != null) {
          line.append(" < job file of ").append(p.stdinText().lines().count()).append(" lines");
        }
      }
    }
    if (plan.duration() != null) {
      line.append("\n          duration ").append(plan.duration().toSeconds()).append(" s");
    }
    if (plan.stopGrace() != null) {
      line.append("\n          stop grace ").append(seconds(plan.stopGrace()));
    }
  }

  /** {@code 30 s}, {@code 0.5 s}. */
  private static String seconds(Duration d) {
    return BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString() + " s";
  }

  /** {@code arg} as a shell word a person can paste: bare when safe, else single-quoted. */
  private static String word(String arg) {
    return !arg.isEmpty() && PLAIN.matcher(arg).matches()
        ? arg
        : "'" + arg.replace("'", "'\\''") + "'";
  }
}
