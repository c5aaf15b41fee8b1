package io.tunelab.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The bytes a trial's workload says it read and wrote: what the hosts' block devices are held
 * against, to tell a trial the page cache served.
 *
 * @param read bytes read, 0 when no job says it read any
 * @param written bytes written, 0 when no job says it wrote any
 */
public record Transfer(long read, long written) {
  /** Nothing read or written, or nothing known. */
  public static final Transfer NONE = new Transfer(0, 0);

  /** This and {@code other} together. */
  public Transfer plus(Transfer other) {
    return new Transfer(read + other.read, written + other.written);
  }

  /**
   * What each role's jobs moved, by direction: a job's {@code read_bytes} and {@code write_bytes}
   * (fio, or a program the metrics parser reads), else dd's {@code bytes} in each direction where
   * its input or output is a file or a disk. A command job whose output tells no direction moved
   * nothing known.
   */
  public static Map<String, Transfer> byRole(WorkloadPlan plan, List<Sample> samples) {
    Map<String, Transfer> roles = new LinkedHashMap<>();
    for (JobPlan job : plan.jobs()) {
      Transfer moved = of(job, samples);
      if (!moved.equals(NONE)) {
        roles.merge(job.role(), moved, Transfer::plus);
      }
    }
    return roles;
  }

  private static Transfer of(JobPlan job, List<Sample> samples) {
    double read = value(samples, job.name(), "read_bytes");
    double written = value(samples, job.name(), "write_bytes");
    if (read > 0 || written > 0) {
      return new Transfer(Math.max(0, (long) read), Math.max(0, (long) written));
    }
    double bytes = value(samples, job.name(), "bytes");
    if (job.kind() != JobKind.DD || bytes <= 0 || job.processes().isEmpty()) {
      return NONE;
    }
    List<String> argv = job.processes().get(0).argv();
    return new Transfer(
        onDisk(argv, "if=") ? (long) bytes : 0, onDisk(argv, "of=") ? (long) bytes : 0);
  }

  private static boolean onDisk(List<String> argv, String operand) {
    return argv.stream()
        .filter(a -> a.startsWith(operand))
        .anyMatch(a -> !WorkloadPlanner.STREAMS.contains(a.substring(operand.length())));
  }

  private static double value(List<Sample> samples, String job, String metric) {
    return samples.stream()
        .filter(s -> s.job().equals(job) && s.metric().equals(metric))
        .mapToDouble(Sample::value)
        .findFirst()
        .orElse(0);
  }
}
