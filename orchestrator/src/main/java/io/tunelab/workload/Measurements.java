package io.tunelab.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Derives a trial's samples from its processes: per process ({@code writer.0}), per job ({@code
 * writer}), and {@code all} for the trial as a whole.
 *
 * <p>For dd, {@code seconds} and {@code bytes} are what dd reports; {@code mib_per_s = bytes /
 * seconds / 1048576} and {@code iops = mib_per_s / bs_in_MiB}. Without a parser, {@code seconds} is
 * the host-timed run of the process, and a declared {@code bytes:} gives {@code bytes} and {@code
 * mib_per_s}. An aggregate of processes started together sums the bytes and takes the slowest
 * process's seconds; it has bytes only when each of its processes has.
 */
public final class Measurements {
  private Measurements() {}

  /** What one process or one group of processes did. */
  private record Amount(double seconds, Long bytes) {}

  /** The samples of a trial whose processes all exited 0; throws when output cannot be read. */
  public static List<Sample> of(WorkloadPlan plan, List<JobResult> results) {
    Map<String, JobResult> byName = new LinkedHashMap<>();
    results.forEach(r -> byName.put(r.name(), r));
    List<Sample> samples = new ArrayList<>();
    List<Amount> jobs = new ArrayList<>();
    long commonBlock = -1;
    for (JobPlan job : plan.jobs()) {
      List<Amount> processes = new ArrayList<>();
      for (ProcessPlan p : job.processes()) {
        JobResult result = byName.get(p.name());
        if (result == null) {
          throw new IllegalStateException("process " + p.name() + ": no result from the host");
        }
        Amount a = amount(job, result);
        add(samples, p.name(), a, job.blockBytes());
        processes.add(a);
      }
      Amount total = sum(processes);
      add(samples, job.name(), total, job.blockBytes());
      jobs.add(total);
      commonBlock = commonBlock == -1 || commonBlock == job.blockBytes() ? job.blockBytes() : 0;
    }
    add(samples, "all", sum(jobs), Math.max(commonBlock, 0));
    return samples;
  }

  private static Amount amount(JobPlan job, JobResult result) {
    switch (job.parser()) {
      case DD:
        List<String> lines = new ArrayList<>(result.stderr());
        lines.addAll(result.stdout());
        DdSummary dd =
            DdSummary.find(lines)
                .orElseThrow(
                    () ->
                        new IllegalStateException(
                            "job " + result.name() + ": no dd summary line in its output"));
        return new Amount(dd.seconds(), dd.bytes());
      case NONE:
        return new Amount(result.hostSeconds(), job.declaredBytes());
      default:
        throw new IllegalStateException(
            "job "
                + result.name()
                + ": the "
                + job.parser().name().toLowerCase(java.util.Locale.ROOT)
                + " parser cannot read its output in this version of tunelab");
    }
  }

  private static Amount sum(List<Amount> amounts) {
    double slowest = 0;
    long bytes = 0;
    boolean allHaveBytes = true;
    for (Amount a : amounts) {
      slowest = Math.max(slowest, a.seconds());
      if (a.bytes() == null) {
        allHaveBytes = false;
      } else {
        bytes += a.bytes();
      }
    }
    return new Amount(slowest, allHaveBytes ? bytes : null);
  }

  private static void add(List<Sample> samples, String job, Amount a, long blockBytes) {
    samples.add(new Sample(job, "seconds", a.seconds(), "s"));
    if (a.bytes() == null) {
      return;
    }
    samples.add(new Sample(job, "bytes", a.bytes(), "B"));
    double mibPerS = a.seconds() > 0 ? a.bytes() / a.seconds() / 1048576.0 : Double.NaN;
    samples.add(new Sample(job, "mib_per_s", mibPerS, "MiB/s"));
    if (blockBytes > 0) {
      samples.add(new Sample(job, "iops", mibPerS / (blockBytes / 1048576.0), "IO/s"));
    }
  }
}
