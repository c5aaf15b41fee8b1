package io.tunelab.workload;

import io.tunelab.matrix.MatrixException;
import io.tunelab.matrix.Sizes;
import io.tunelab.matrix.Substitution;
import io.tunelab.matrix.Workload;
import io.tunelab.yaml.Problem;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Turns a workload template and one trial's variables into the jobs the agent starts together. */
public final class WorkloadPlanner {
  /** Inputs and outputs that have no offsets: every process may use them whole. */
  private static final Set<String> STREAMS =
      Set.of("/dev/zero", "/dev/null", "/dev/urandom", "/dev/random", "/dev/full");

  private WorkloadPlanner() {}

  /** Resolves {@code workload} with {@code vars} ({@code ${proc}} is added per process). */
  public static WorkloadPlan plan(Workload workload, Map<String, String> vars) {
    if (workload instanceof Workload.Dd dd) {
      return planDd(dd, vars);
    }
    Workload.Command command = (Workload.Command) workload;
    int processes = processes(command.processes(), vars, command);
    List<Job> jobs = new ArrayList<>();
    for (int i = 0; i < processes; i++) {
      String text = Substitution.apply(command.command(), withProc(vars, i), command.position());
      jobs.add(new Job("cmd." + i, List.of("sh", "-c", text)));
    }
    return new WorkloadPlan(command.on(), jobs, command.parser(), 0);
  }

  private static WorkloadPlan planDd(Workload.Dd dd, Map<String, String> vars) {
    long bs = Sizes.parseBytes(Substitution.apply(dd.bs(), vars, dd.position()));
    long count;
    if (dd.count() != null) {
      count = Long.parseLong(Substitution.apply(dd.count(), vars, dd.position()).trim());
    } else {
      long total = Sizes.parseBytes(Substitution.apply(dd.total(), vars, dd.position()));
      if (bs <= 0 || total % bs != 0) {
        throw new MatrixException(
            new Problem(
                dd.position(),
                "workload.dd.total",
                total + " bytes is not a multiple of bs (" + bs + " bytes)"));
      }
      count = total / bs;
    }
    int processes = processes(dd.processes(), vars, dd);
    List<Job> jobs = new ArrayList<>();
    for (int i = 0; i < processes; i++) {
      Map<String, String> procVars = withProc(vars, i);
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
      jobs.add(new Job("dd." + i, argv));
    }
    return new WorkloadPlan(dd.on(), jobs, "dd", bs);
  }

  /** dd takes each of iflag=, oflag=, conv= once: values given twice are joined with commas. */
  static List<String> mergeFlags(List<String> flags) {
    Map<String, List<String>> byKey = new java.util.LinkedHashMap<>();
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

  private static int processes(String template, Map<String, String> vars, Workload workload) {
    if (template == null) {
      return 1;
    }
    String text = Substitution.apply(template, vars, workload.position());
    try {
      int n = Integer.parseInt(text.trim());
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new MatrixException(
        new Problem(
            workload.position(),
            "workload.processes",
            "'" + text + "' is not a whole number >= 1"));
  }

  private static Map<String, String> withProc(Map<String, String> vars, int proc) {
    Map<String, String> copy = new HashMap<>(vars);
    copy.put("proc", Integer.toString(proc));
    return copy;
  }
}
