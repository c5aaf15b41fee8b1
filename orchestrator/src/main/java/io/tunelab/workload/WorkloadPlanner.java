package io.tunelab.workload;

import io.tunelab.matrix.Durations;
import io.tunelab.matrix.JobValues;
import io.tunelab.matrix.MatrixException;
import io.tunelab.matrix.Sizes;
import io.tunelab.matrix.Substitution;
import io.tunelab.matrix.Workload;
import io.tunelab.yaml.Position;
import io.tunelab.yaml.Problem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Turns a workload template and one trial's variables into the jobs the agent starts together.
 *
 * <p>dd runs {@code dd if= of= bs= count= [skip= seek=] [flags]}; fio runs {@code fio
 * --output-format=json --name=JOB --OPTION=VALUE …}, or with a job file {@code fio
 * --output-format=json -} reading the substituted file on its standard input; a command runs as
 * {@code sh -c COMMAND}. Every process gets its own {@code ${proc}}.
 */
public final class WorkloadPlanner {
  /**
   * Inputs and outputs that have no offsets, every process may use them whole; and no disk behind
   * them.
   */
  static final Set<String> STREAMS =
      Set.of("/dev/zero", "/dev/null", "/dev/urandom", "/dev/random", "/dev/full");

  /** What a captured variable stands for while the workloads are checked before a run. */
  static final String PLACEHOLDER = "captured";

  private final Map<String, String> vars;

  /** Captures not known yet: fields that only they fill are left to the run ({@link #check}). */
  private final Set<String> unknown;

  /**
   * Checking before the run: one process per job is enough to resolve every template, and a list
   * placeholder has one element only.
   */
  private final boolean checking;

  private WorkloadPlanner(Map<String, String> vars, Set<String> unknown, boolean checking) {
    this.vars = vars;
    this.unknown = unknown;
    this.checking = checking;
  }

  /**
   * Resolves {@code workload} with {@code vars} ({@code ${proc}} is added per process). A list
   * variable's value holds its elements one per line ({@link Substitution#listValue}).
   *
   * @throws MatrixException when a value cannot be used, e.g. a captured {@code processes} that is
   *     no number
   */
  public static WorkloadPlan plan(Workload workload, Map<String, String> vars) {
    return new WorkloadPlanner(vars, Set.of(), false).plan(workload);
  }

  /**
   * Resolves {@code workload} for the check before a run: the variables in {@code captured} are not
   * known yet (they hold {@link #placeholder()}), so a field that only they fill ({@code processes:
   * ${n}}, {@code ionice: ${class}}) is checked when the trial runs.
   *
   * @throws MatrixException when a value cannot be used
   */
  public static void check(Workload workload, Map<String, String> vars, Set<String> captured) {
    new WorkloadPlanner(vars, captured, true).plan(workload);
  }

  /**
   * Resolves {@code workload} for showing before a run: every process, with the variables in {@code
   * captured} left as they are written ({@code ${dev}}) and a field that only they fill (a captured
   * {@code processes}) left to the run.
   *
   * @throws MatrixException when a value cannot be used
   */
  public static WorkloadPlan preview(
      Workload workload, Map<String, String> vars, Set<String> captured) {
    Map<String, String> shown = new LinkedHashMap<>(vars);
    captured.forEach(name -> shown.put(name, "${" + name + "}"));
    return new WorkloadPlanner(shown, captured, false).plan(workload);
  }

  /** The value a captured variable holds while workloads are checked before a run. */
  public static String placeholder() {
    return Substitution.listValue(List.of(PLACEHOLDER));
  }

  private WorkloadPlan plan(Workload workload) {
    List<JobPlan> jobs = new ArrayList<>();
    for (Workload.Job job : workload.jobs()) {
      jobs.add(job(job));
    }
    return new WorkloadPlan(
        List.copyOf(jobs),
        limit(workload.duration(), workload.position(), "workload.duration"),
        limit(workload.timeout(), workload.position(), "workload.timeout"),
        limit(workload.stopGrace(), workload.position(), "workload.stop_grace"));
  }

  private JobPlan job(Workload.Job job) {
    int processes = processes(job);
    String ionice = field(job, job.ionice(), "ionice", JobValues::ioniceProblem);
    String nice = field(job, job.nice(), "nice", JobValues::niceProblem);
    String cpus = field(job, job.cpus(), "cpus", JobValues::cpusProblem);
    Integer niceness = nice == null ? null : Integer.valueOf(nice);
    Duration duration = limit(job.duration(), job.position(), job.key() + ".duration");
    Duration timeout = limit(job.timeout(), job.position(), job.key() + ".timeout");
    String ioClass = "none".equals(ionice) ? null : ionice;
    if (job.work() instanceof Workload.Dd dd) {
      long bs = Sizes.parseBytes(Substitution.apply(dd.bs(), vars, dd.position()));
      return new JobPlan(
          job.name(),
          job.on(),
          JobKind.DD,
          Parser.DD,
          bs,
          null,
          ioClass,
          niceness,
          cpus,
          duration,
          timeout,
          dd(job, dd, bs, processes));
    }
    if (job.work() instanceof Workload.Fio fio) {
      List<ProcessPlan> list = new ArrayList<>();
      for (int i = 0; i < processes; i++) {
        list.add(fio(job, fio, withProc(i), job.name() + "." + i));
      }
      return new JobPlan(
          job.name(),
          job.on(),
          JobKind.FIO,
          Parser.FIO,
          0,
          null,
          ioClass,
          niceness,
          cpus,
          duration,
          timeout,
          list);
    }
    Workload.Command command = (Workload.Command) job.work();
    List<ProcessPlan> list = new ArrayList<>();
    for (int i = 0; i < processes; i++) {
      String text = Substitution.apply(command.command(), withProc(i), command.position());
      list.add(new ProcessPlan(job.name() + "." + i, List.of("sh", "-c", text), null));
    }
    Long declared =
        command.bytes() == null
            ? null
            : Sizes.parseBytes(Substitution.apply(command.bytes(), vars, command.position()));
    return new JobPlan(
        job.name(),
        job.on(),
        JobKind.COMMAND,
        Parser.named(command.parser()),
        0,
        declared,
        ioClass,
        niceness,
        cpus,
        duration,
        timeout,
        list);
  }

  private List<ProcessPlan> dd(Workload.Job job, Workload.Dd dd, long bs, int processes) {
    long count;
    if (dd.count() != null) {
      count = Long.parseLong(Substitution.apply(dd.count(), vars, dd.position()).trim());
    } else {
      long total = Sizes.parseBytes(Substitution.apply(dd.total(), vars, dd.position()));
      if (bs <= 0 || total % bs != 0) {
        throw new MatrixException(
            new Problem(
                dd.position(),
                job.key() + ".dd.total",
                total + " bytes is not a multiple of bs (" + bs + " bytes)"));
      }
      count = total / bs;
    }
    List<ProcessPlan> list = new ArrayList<>();
    for (int i = 0; i < processes; i++) {
      Map<String, String> procVars = withProc(i);
      String input = Substitution.apply(dd.input(), procVars, dd.position());
      String output = Substitution.apply(dd.output(), procVars, dd.position());
      List<String> argv = new ArrayList<>(List.of("dd", "if=" + input, "of=" + output));
      argv.add("bs=" + bs);
      argv.add("count=" + count);
      List<String> flags = new ArrayList<>();
      for (String flag : dd.flags()) {
        flags.add(Substitution.apply(flag, procVars, dd.position()));
      }
      if (processes > 1 && i > 0) {
        // Without ${proc} in the paths, each process gets its own region of the same file.
        if (!dd.input().contains("${proc}") && !STREAMS.contains(input)) {
          argv.add("skip=" + (i * count));
        }
        if (!dd.output().contains("${proc}") && !STREAMS.contains(output)) {
          argv.add("seek=" + (i * count));
          flags.add("conv=notrunc");
        }
      }
      argv.addAll(mergeFlags(flags));
      list.add(new ProcessPlan(job.name() + "." + i, List.copyOf(argv), null));
    }
    return List.copyOf(list);
  }

  private static ProcessPlan fio(
      Workload.Job job, Workload.Fio fio, Map<String, String> procVars, String name) {
    List<String> argv = new ArrayList<>(List.of("fio", "--output-format=json"));
    if (fio.jobfile() != null) {
      argv.add("-");
      String text = Substitution.apply(fio.jobfileText(), procVars, fio.position());
      return new ProcessPlan(name, List.copyOf(argv), text);
    }
    argv.add("--name=" + job.name());
    fio.options()
        .forEach(
            (option, value) ->
                argv.add(
                    value == null
                        ? "--" + option
                        : "--"
                            + option
                            + "="
                            + Substitution.apply(value, procVars, fio.position())));
    return new ProcessPlan(name, List.copyOf(argv), null);
  }

  /** dd takes each of iflag=, oflag=, conv= once: values given twice are joined with commas. */
  static List<String> mergeFlags(List<String> flags) {
    Map<String, List<String>> byKey = new LinkedHashMap<>();
    for (String flag : flags) {
      int eq = flag.indexOf('=');
      String key = flag.substring(0, eq);
      for (String value : flag.substring(eq + 1).split(",")) {
        List<String> values = byKey.computeIfAbsent(key, k -> new ArrayList<>());
        if (!values.contains(value)) {
          values.add(value);
        }
      }
    }
    List<String> merged = new ArrayList<>();
    byKey.forEach((key, values) -> merged.add(key + "=" + String.join(",", values)));
    return merged;
  }

  /** The number of processes to plan; one while checking. */
  private int processes(Workload.Job job) {
    String text = field(job, job.processes(), "processes", JobValues::processesProblem);
    return text == null || checking ? 1 : Integer.parseInt(text);
  }

  /**
   * A single-valued field, substituted and checked; null when absent, or when checking before the
   * run and only a capture can tell.
   */
  private String field(
      Workload.Job job, String template, String name, Function<String, String> problem) {
    if (template == null || namesUnknown(template)) {
      return null;
    }
    String text = Substitution.apply(template, vars, job.position()).trim();
    String why = problem.apply(text);
    if (why != null) {
      throw new MatrixException(
          new Problem(
              job.position(),
              job.key() + "." + name,
              text.equals(template) ? why : why + " (from " + template + ")"));
    }
    return text;
  }

  private Duration limit(String template, Position position, String key) {
    if (template == null || namesUnknown(template)) {
      return null;
    }
    String text = Substitution.apply(template, vars, position).trim();
    try {
      return Durations.parse(text);
    } catch (IllegalArgumentException e) {
      throw new MatrixException(
          new Problem(
              position,
              key,
              text.equals(template)
                  ? e.getMessage()
                  : e.getMessage() + " (from " + template + ")"));
    }
  }

  private boolean namesUnknown(String template) {
    if (unknown.isEmpty()) {
      return false;
    }
    for (String name : Substitution.names(template)) {
      if (unknown.contains(name)) {
        return true;
      }
    }
    return false;
  }

  private Map<String, String> withProc(int proc) {
    Map<String, String> copy = new HashMap<>(vars);
    copy.put("proc", Integer.toString(proc));
    return copy;
  }
}
