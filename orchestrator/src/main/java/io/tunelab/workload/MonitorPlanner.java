package io.tunelab.workload;

import io.tunelab.matrix.Monitor;
import io.tunelab.matrix.Substitution;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Turns the matrix's {@code monitors} and one trial's variables into one monitor per role. */
public final class MonitorPlanner {
  private MonitorPlanner() {}

  /** Every monitor on every role it names, in the order written; devices substituted. */
  public static List<MonitorPlan> plan(List<Monitor> monitors, Map<String, String> vars) {
    List<MonitorPlan> plans = new ArrayList<>();
    for (Monitor m : monitors) {
      List<String> devices = new ArrayList<>();
      for (String template : m.devices()) {
        devices.addAll(Substitution.expand(template, vars, m.position()));
      }
      List<String> argv = MonitorOutput.argv(m.tool(), m.interval(), devices);
      for (String role : m.roles()) {
        plans.add(
            new MonitorPlan(m.tool(), role, m.interval(), devices, m.tool() + "@" + role, argv));
      }
    }
    return List.copyOf(plans);
  }
}
