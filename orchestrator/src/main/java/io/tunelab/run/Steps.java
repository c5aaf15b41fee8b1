package io.tunelab.run;

import io.tunelab.TunelabException;
import io.tunelab.agent.AgentSession;
import io.tunelab.matrix.Step;
import io.tunelab.matrix.Substitution;
import io.tunelab.workload.JobResult;
import io.tunelab.workload.ProcessPlan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs steps (setup, teardown, cell steps, trial commands) through the agent of the step's role,
 * capturing stdout.
 */
final class Steps {
  private static final Duration TIMEOUT = Duration.ofMinutes(30);

  private Steps() {}

  /** Runs {@code step}; adds its capture to {@code vars}; throws when it exits non-zero. */
  static void run(Hosts hosts, Step step, Map<String, String> vars) {
    String command = Substitution.apply(step.run(), vars, step.position());
    AgentSession session = hosts.session(hosts.hostOf(step.on()));
    JobResult job =
        session
            .run(List.of(new ProcessPlan("step", List.of("sh", "-c", command), null)), TIMEOUT)
            .jobs()
            .get(0);
    int rc = job.exitCode();
    if (rc != 0) {
      List<String> err = job.stderr();
      String last = err.isEmpty() ? "" : ": " + err.get(err.size() - 1);
      throw refused(step, session, command, "exited " + rc + last);
    }
    if (step.capture() != null) {
      List<String> values = new ArrayList<>();
      for (String line : Captures.lines(job.stdout(), step.captureList())) {
        String value = Captures.basename(line);
        Optional<String> why = Captures.problem(value);
        if (why.isPresent()) {
          throw refused(
              step,
              session,
              command,
              "printed '"
                  + line.trim()
                  + "', which is no safe value for "
                  + (step.captureList()
                      ? "an element of ${" + step.capture() + "[*]}"
                      : "${" + step.capture() + "}")
                  + " ("
                  + why.get()
                  + ")");
        }
        values.add(value);
      }
      vars.put(step.capture(), step.captureList() ? Substitution.listValue(values) : values.get(0));
    }
  }

  private static TunelabException refused(
      Step step, AgentSession session, String command, String what) {
    return new TunelabException(
        TunelabException.HOST_REFUSED,
        step.position() + ": host " + session.host() + ": step '" + command + "' " + what);
  }

  /**
   * Runs every teardown step, each on its own: a failing step does not keep the others from
   * releasing what they can. A step's capture is seen by the later steps; {@code vars} is not
   * changed. Returns one message per failed step.
   */
  static List<String> teardown(Hosts hosts, List<Step> steps, Map<String, String> vars) {
    List<String> problems = new ArrayList<>();
    Map<String, String> scope = new LinkedHashMap<>(vars);
    for (Step step : steps) {
      try {
        run(hosts, step, scope);
      } catch (TunelabException | IllegalArgumentException e) {
        problems.add(e.getMessage());
      }
    }
    return problems;
  }
}
