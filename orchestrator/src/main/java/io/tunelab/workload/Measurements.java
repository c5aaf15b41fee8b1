package io.tunelab.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Derives a trial's samples from its processes: per process ({@code writer.0}), per job ({@code
 * writer}), {@code all} for the trial as a whole, and a monitor's means ({@code vmstat@client},
 * {@code iostat@server:sdb}); and says why a process fails its trial.
 *
 * <p>For dd, {@code seconds} and {@code bytes} are what dd reports; {@code mib_per_s = bytes /
 * seconds / 1048576} and {@code iops = mib_per_s / bs_in_MiB}. fio's figures are its JSON's (see
 * {@link FioOutput}) with the host-timed {@code seconds}. A {@code metrics} program's values are
 * what it printed ({@link MetricsOutput}). Without a parser, {@code seconds} is the host-timed run
 * of the process, and a declared {@code bytes:} gives {@code bytes} and {@code mib_per_s}. How
 * processes that ran together combine is {@link Figures#combine}.
 */
public final class Measurements {
  private Measurements() {}

  /**
   * The samples of a trial whose processes all ended well ({@link #problem} null for each); throws
   * {@link IllegalStateException} when a process has no result.
   */
  public static List<Sample> of(WorkloadPlan plan, List<JobResult> results) {
    Map<String, JobResult> byName = new LinkedHashMap<>();
    results.forEach(r -> byName.put(r.name(), r));
    List<Sample> samples = new ArrayList<>();
    List<Figures> jobs = new ArrayList<>();
    for (JobPlan job : plan.jobs()) {
      List<Figures> processes = new ArrayList<>();
      for (ProcessPlan p : job.processes()) {
        JobResult result = byName.get(p.name());
        if (result == null) {
          throw new IllegalStateException("process " + p.name() + ": no result from the host");
        }
        Figures f = Figures.of(job, result);
        f.emit(samples, p.name());
        processes.add(f);
      }
      Figures total = Figures.combine(processes);
      total.emit(samples, job.name());
      jobs.add(total);
    }
    Figures.combine(jobs).emit(samples, Sample.AGGREGATE_JOB);
    return samples;
  }

  /**
   * Why {@code result}, a process of {@code job}, fails its trial, in the process's own words; null
   * when it ended well. A process the duration stopped in time may exit non-zero (dd dies of the
   * SIGINT after printing its summary). A timeout (exit 124) is the caller's to report: it knows
   * the limit.
   */
  public static String problem(JobPlan job, JobResult result, Stopped stopped) {
    if (stopped == Stopped.KILLED) {
      return "did not end within the grace period after SIGINT at the duration, and was killed";
    }
    boolean failed = result.exitCode() != 0 && stopped == Stopped.NO;
    switch (job.parser()) {
      case FIO -> {
        FioOutput fio = FioOutput.parse(result.stdout(), result.stderr());
        if (fio.failed()) {
          return fio.error();
        }
        return failed ? "fio exited " + result.exitCode() + lastLine(result.stderr()) : null;
      }
      case DD -> {
        if (failed) {
          return exited(result);
        }
        List<String> lines = new ArrayList<>(result.stderr());
        lines.addAll(result.stdout());
        return DdSummary.find(lines).isPresent() ? null : "no dd summary line in its output";
      }
      case METRICS -> {
        if (failed) {
          return exited(result);
        }
        return MetricsOutput.parse(result.stdout()).problem();
      }
      default -> {
        return failed ? exited(result) : null;
      }
    }
  }

  /**
   * A monitor's figures as samples ({@link MonitorOutput#means}): job {@code vmstat@client}, {@code
   * mpstat@client}, or per device {@code iostat@server:sdb}.
   */
  public static List<Sample> monitor(MonitorPlan monitor, MonitorOutput output) {
    List<Sample> samples = new ArrayList<>();
    for (MonitorMean mean : output.means()) {
      String job = mean.device().isEmpty() ? monitor.name() : monitor.name() + ":" + mean.device();
      samples.add(new Sample(job, mean.metric(), mean.value(), mean.unit()));
    }
    return samples;
  }

  private static String exited(JobResult result) {
    return "exited " + result.exitCode() + lastLine(result.stderr());
  }

  private static String lastLine(List<String> lines) {
    for (int i = lines.size() - 1; i >= 0; i--) {
      if (!lines.get(i).isBlank()) {
        return ": " + lines.get(i).trim();
      }
    }
    return "";
  }
}
