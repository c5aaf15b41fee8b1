package io.tunelab.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * Derives a trial's samples from its jobs: per process, plus {@code all} for the aggregate.
 *
 * <p>For dd, {@code seconds} and {@code bytes} are what dd reports; {@code mib_per_s = bytes /
 * seconds / 1048576} and {@code iops = mib_per_s / bs_in_MiB}. The aggregate of N processes started
 * together sums the bytes and takes the slowest process's seconds.
 */
public final class Measurements {
  private Measurements() {}

  /** The samples of a trial whose jobs all exited 0; throws when output cannot be read. */
  public static List<Sample> of(WorkloadPlan plan, List<JobResult> results) {
    List<Sample> samples = new ArrayList<>();
    long totalBytes = 0;
    double slowest = 0;
    for (JobResult job : results) {
      if (plan.parser().equals("dd")) {
        List<String> lines = new ArrayList<>(job.stderr());
        lines.addAll(job.stdout());
        DdSummary dd =
            DdSummary.find(lines)
                .orElseThrow(
                    () ->
                        new IllegalStateException(
                            "job " + job.name() + ": no dd summary line in its output"));
        addRates(samples, job.name(), dd.bytes(), dd.seconds(), plan.blockBytes());
        totalBytes += dd.bytes();
        slowest = Math.max(slowest, dd.seconds());
      } else {
        samples.add(new Sample(job.name(), "seconds", job.hostSeconds(), "s"));
        slowest = Math.max(slowest, job.hostSeconds());
      }
    }
    if (plan.parser().equals("dd")) {
      addRates(samples, Sample.AGGREGATE_JOB, totalBytes, slowest, plan.blockBytes());
    } else {
      samples.add(new Sample(Sample.AGGREGATE_JOB, "seconds", slowest, "s"));
    }
    return samples;
  }

  private static void addRates(
      List<Sample> samples, String job, long bytes, double seconds, long blockBytes) {
    samples.add(new Sample(job, "seconds", seconds, "s"));
    samples.add(new Sample(job, "bytes", bytes, "B"));
    double mibPerS = seconds > 0 ? bytes / seconds / 1048576.0 : Double.NaN;
    samples.add(new Sample(job, "mib_per_s", mibPerS, "MiB/s"));
    if (blockBytes > 0) {
      samples.add(new Sample(job, "iops", mibPerS / (blockBytes / 1048576.0), "IO/s"));
    }
  }
}
