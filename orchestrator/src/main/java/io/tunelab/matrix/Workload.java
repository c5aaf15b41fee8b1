package io.tunelab.matrix;

import io.tunelab.yaml.Position;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What every trial runs: jobs started together on their roles' hosts, with optional time limits.
 * Fields are templates: {@code ${param}}, {@code ${rep}}, captured variables and {@code ${proc}}
 * are substituted per trial and process.
 *
 * @param jobs in the order written; the short forms give one job named {@code dd}, {@code fio} or
 *     {@code cmd}
 * @param duration null, or a duration template ({@code 60s}) after which running jobs are stopped
 * @param timeout null, or a duration template after which the trial fails
 * @param stopGrace null (the host agent's own, {@link #STOP_GRACE} unless its {@code
 *     TUNELAB_STOP_GRACE} says otherwise), or a duration template: how long a job stopped at its
 *     duration has before SIGKILL
 */
public record Workload(
    List<Job> jobs, String duration, String timeout, String stopGrace, Position position) {
  /**
   * How long a job stopped at its duration has after its SIGINT before SIGKILL, unless {@code
   * stop_grace} says: time for fio's JSON, dd's summary and a close() that flushes dirty pages. A
   * timeout inside it would kill a job that was stopping as asked.
   */
  public static final Duration STOP_GRACE = Duration.ofSeconds(10);

  /**
   * The fio job files the jobs read, by their path as written, with their text: what an experiment
   * stores so that it runs what was planned wherever and whenever it runs.
   */
  public Map<String, String> jobFiles() {
    Map<String, String> files = new LinkedHashMap<>();
    for (Job job : jobs) {
      if (job.work() instanceof Fio fio && fio.jobfile() != null) {
        files.put(fio.jobfile(), fio.jobfileText());
      }
    }
    return files;
  }

  /**
   * One job: {@code processes} copies of one program started together on role {@code on}.
   *
   * @param name the job's name, the prefix of its samples ({@code writer}, {@code writer.0})
   * @param key where the job is written, for messages: {@code workload} for a short form, else
   *     {@code workload.jobs.NAME}
   * @param processes a whole number, a {@code ${parameter}}, a captured {@code ${variable}} or
   *     {@code ${#list}}
   * @param ionice null, or {@code none}, {@code idle}, {@code be/N}, {@code rt/N} (a template)
   * @param nice null, or -20 to 19 (a template)
   * @param cpus null, or a taskset CPU list such as {@code 0-3,6} (a template)
   * @param duration null for the workload's, or the job's own duration template
   * @param timeout null for the workload's, or the job's own timeout template
   */
  public record Job(
      String name,
      String key,
      String on,
      String processes,
      String ionice,
      String nice,
      String cpus,
      String duration,
      String timeout,
      Work work,
      Position position) {}

  /** The program a job runs. */
  public sealed interface Work permits Dd, Fio, Command {
    Position position();
  }

  /** A dd run; exactly one of {@code count} and {@code total} is set. */
  public record Dd(
      String input,
      String output,
      String bs,
      String count,
      String total,
      List<String> flags,
      Position position)
      implements Work {}

  /**
   * fio, with JSON output: either {@code options} (each passed as {@code --name=value}; a null
   * value is passed as {@code --name}) or a job file.
   *
   * @param options fio option to value template, in the order written; empty with a job file
   * @param jobfile the job file's path as written (relative to the matrix), or null
   * @param jobfileText the job file's text, a template, or null
   */
  public record Fio(
      Map<String, String> options, String jobfile, String jobfileText, Position position)
      implements Work {}

  /**
   * Any program, run with {@code sh -c}.
   *
   * @param parser {@code dd}, {@code fio}, {@code metrics} or {@code none}
   * @param bytes null, or the bytes one process moves (a size template), for {@code mib_per_s}
   */
  public record Command(String command, String parser, String bytes, Position position)
      implements Work {}
}
