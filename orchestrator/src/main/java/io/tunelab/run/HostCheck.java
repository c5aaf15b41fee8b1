package io.tunelab.run;

import io.tunelab.TunelabException;
import io.tunelab.agent.AgentSession;
import io.tunelab.agent.Facts;
import io.tunelab.agents.AgentScript;
import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.Step;
import io.tunelab.plan.Cell;
import io.tunelab.plan.ExperimentPlan;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code tunelab hosts check}: can each host be reached, does the agent run as root, what are its
 * facts, and — given a matrix — does every knob exist and accept every value to be written. Writes
 * no knob; with a matrix it runs the matrix's setup and teardown, which its knob names may need
 * (e.g. the loop device a setup step creates).
 */
public final class HostCheck {
  private HostCheck() {}

  /** One line of the check: a host, what was checked, and what was found. */
  public record Row(String host, String check, boolean ok, String detail) {}

  /** Checks {@code hosts} (and, when {@code matrix} is not null, its knobs on its roles' hosts). */
  public static List<Row> run(HostConnector connector, List<String> hosts, Matrix matrix) {
    List<Row> rows = new ArrayList<>();
    boolean allUp = true;
    for (String host : hosts) {
      allUp &= checkHost(connector, host, rows);
    }
    if (matrix != null && allUp) {
      checkKnobs(connector, matrix, rows);
    }
    return rows;
  }

  /**
   * The noise checks of {@code hosts} ({@code hosts check --benchmark}), host after host; writes
   * nothing. A host that cannot be reached ends it with its reason (exit 3).
   */
  public static List<NoiseChecks.Check> noise(HostConnector connector, List<String> hosts) {
    List<NoiseChecks.Check> checks = new ArrayList<>();
    for (String host : hosts) {
      try (AgentSession session = AgentSession.start(connector.connect(host), AgentScript.load())) {
        checks.addAll(NoiseChecks.of(host, session.noise()));
      }
    }
    return checks;
  }

  private static boolean checkHost(HostConnector connector, String host, List<Row> rows) {
    AgentSession session;
    try {
      session = AgentSession.start(connector.connect(host), AgentScript.load());
    } catch (TunelabException e) {
      rows.add(new Row(host, "connect", false, e.getMessage()));
      return false;
    }
    try (session) {
      rows.add(new Row(host, "connect", true, "agent " + session.remotePath()));
      Facts f = session.facts();
      boolean root = f.root();
      rows.add(
          new Row(
              host,
              "root",
              root,
              root
                  ? "agent runs as uid 0"
                  : "agent runs as uid " + f.uid() + ": log in as root or set become: sudo"));
      rows.add(
          new Row(
              host,
              "facts",
              true,
              "kernel "
                  + f.kernelRelease()
                  + ", "
                  + f.cpus()
                  + " CPUs, "
                  + f.memKb() / 1024
                  + " MiB, journal "
                  + (f.journalPresent() ? "present" : "absent")));
      return root;
    } catch (TunelabException e) {
      rows.add(new Row(host, "agent", false, e.getMessage()));
      return false;
    }
  }

  private static void checkKnobs(HostConnector connector, Matrix matrix, List<Row> rows) {
    List<Cell> cells = ExperimentPlan.of(matrix).cells();
    try (Hosts hosts = Hosts.connect(matrix.roles(), connector)) {
      Map<String, String> vars = new LinkedHashMap<>();
      try {
        for (Step step : matrix.setup()) {
          Steps.run(hosts, step, vars);
        }
        ExperimentKnobs knobs = new ExperimentKnobs(matrix, cells, vars);
        Preflight.Findings findings = Preflight.inspect(hosts, knobs, cells, vars);
        for (AgentSession s : hosts.all()) {
          String prefix = "host " + s.host() + ": ";
          List<String> mine =
              findings.problems().stream()
                  .filter(p -> p.startsWith(prefix))
                  .map(p -> p.substring(prefix.length()))
                  .toList();
          long count = knobs.all().values().stream().filter(k -> k.host().equals(s.host())).count();
          rows.add(
              new Row(
                  s.host(),
                  "knobs",
                  mine.isEmpty(),
                  mine.isEmpty()
                      ? count
                          + " knob(s) exist and accept every value of "
                          + cells.size()
                          + " cell(s)"
                      : String.join("; ", mine)));
        }
      } catch (TunelabException e) {
        rows.add(new Row("-", "setup", false, e.getMessage()));
      } finally {
        Steps.teardown(hosts, matrix.teardown(), vars)
            .forEach(p -> rows.add(new Row("-", "teardown", false, p)));
      }
    }
  }
}
