package io.tunelab.run;

import io.tunelab.agent.AgentResponse;
import io.tunelab.agent.AgentSession;
import io.tunelab.matrix.Cell;
import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.MatrixExpander;
import io.tunelab.matrix.Step;
import io.tunelab.plan.PlanBuilder;
import io.tunelab.plan.Trial;
import io.tunelab.store.ResultStore;
import io.tunelab.store.ResultStore.PlannedCell;
import io.tunelab.store.ResultStore.PlannedTrial;
import io.tunelab.workload.WorkloadPlanner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Wires the pure parts to the hosts and the store: setup, preflight, the plan, every trial, and —
 * whatever happens — restore and teardown.
 */
public final class ExperimentRunner {
  private static final Duration RESTORE_TIMEOUT = Duration.ofMinutes(5);

  private final HostConnector connector;
  private final ResultStore store;
  private final Consumer<String> out;
  private final String toolVersion;
  private volatile boolean interrupted;
  private volatile Hosts liveHosts;
  private final CountDownLatch finished = new CountDownLatch(1);

  public ExperimentRunner(
      HostConnector connector, ResultStore store, Consumer<String> out, String toolVersion) {
    this.connector = connector;
    this.store = store;
    this.out = out;
    this.toolVersion = toolVersion;
  }

  /** Runs a new experiment from a validated matrix. */
  public RunSummary run(Matrix matrix) {
    return execute(matrix, null);
  }

  /** Continues an experiment: only its unfinished trials run, none is repeated. */
  public RunSummary resume(ResultStore.StoredExperiment experiment, Matrix matrix) {
    return execute(matrix, experiment);
  }

  /**
   * Asks a running experiment to stop (Ctrl-C): the current workload is killed on its host, then
   * the run restores every host and tears down as usual. Waits for that to finish.
   */
  public void interrupt(Duration wait) {
    interrupted = true;
    Hosts hosts = liveHosts;
    if (hosts != null) {
      for (AgentSession session : hosts.all()) {
        try {
          session
              .transport()
              .exec("sh " + session.remotePath() + " cancel", null, Duration.ofSeconds(10));
        } catch (Exception e) {
          out.accept(
              "warning: host "
                  + session.host()
                  + ": cannot cancel the workload: "
                  + e.getMessage());
        }
      }
    }
    try {
      finished.await(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private RunSummary execute(Matrix matrix, ResultStore.StoredExperiment resumed) {
    List<Cell> cells = MatrixExpander.expand(matrix);
    WorkloadPlanner.check(matrix, cells); // before any host is touched, so a bad value exits 2
    try (Hosts hosts = Hosts.connect(matrix.roles(), connector)) {
      liveHosts = hosts;
      Map<String, Map<String, String>> facts = HostFacts.gather(hosts);
      Map<String, String> vars = new LinkedHashMap<>();
      List<Step> setupDone = new ArrayList<>();
      long experimentId = -1;
      boolean applied = false;
      try {
        restoreLeftovers(hosts, facts);
        if (resumed != null && resumed.status().equals("running")) {
          // Its controller was killed (we hold every agent lock): release what its setup made.
          teardown(
              hosts, matrix, matrix.setup(), new LinkedHashMap<>(store.variables(resumed.id())));
        }
        for (Step step : matrix.setup()) {
          setupDone.add(step);
          Steps.run(hosts, step, vars);
        }
        ExperimentKnobs knobs = new ExperimentKnobs(matrix.roles(), cells, vars, matrix.source());
        Map<String, Map<String, String>> originals = Preflight.check(hosts, knobs, cells, vars);
        experimentId = resumed != null ? resumed.id() : create(matrix, cells);
        recordHosts(experimentId, matrix.roles(), facts);
        store.recordVariables(experimentId, vars);
        store.setExperimentStatus(experimentId, "running");
        Map<String, HostKnobState> states = new LinkedHashMap<>();
        for (AgentSession s : hosts.all()) {
          states.put(s.host(), new HostKnobState(originals.getOrDefault(s.host(), Map.of())));
        }
        applied = true;
        RunSummary summary =
            new TrialLoop(store, new TrialExecutor(matrix, hosts, states), knobs, cells, vars, out)
                .run(experimentId, () -> interrupted);
        return summary;
      } catch (RuntimeException e) {
        if (experimentId > 0) {
          store.setExperimentStatus(experimentId, interrupted ? "interrupted" : "failed");
        }
        throw e;
      } finally {
        if (applied) {
          restore(hosts);
        }
        teardown(hosts, matrix, setupDone, vars);
        liveHosts = null;
        finished.countDown();
      }
    }
  }

  private long create(Matrix matrix, List<Cell> cells) {
    List<PlannedCell> planned = new ArrayList<>(cells.size());
    for (Cell c : cells) {
      planned.add(new PlannedCell(c.ordinal(), c.label(), c.params(), c.knobs()));
    }
    List<Trial> trials =
        PlanBuilder.build(
            cells.size(), matrix.repeat(), matrix.warmup(), matrix.order(), matrix.seed());
    List<PlannedTrial> plannedTrials = new ArrayList<>(trials.size());
    for (Trial t : trials) {
      plannedTrials.add(new PlannedTrial(t.cellOrdinal(), t.rep(), t.seq(), t.warmup()));
    }
    return store.createExperiment(
        new ResultStore.NewExperiment(
            matrix.name(),
            matrix.description(),
            matrix.text(),
            matrix.source(),
            toolVersion,
            matrix.order().name().toLowerCase(java.util.Locale.ROOT),
            matrix.seed(),
            matrix.repeat(),
            matrix.warmup(),
            planned,
            plannedTrials));
  }

  private void recordHosts(
      long experimentId, Map<String, String> roles, Map<String, Map<String, String>> facts) {
    roles.forEach((role, host) -> store.recordHost(experimentId, role, host, facts.get(host)));
  }

  /** A journal left by a crashed run is replayed first, so originals are read from a clean host. */
  private void restoreLeftovers(Hosts hosts, Map<String, Map<String, String>> facts) {
    for (AgentSession s : hosts.all()) {
      if ("present".equals(facts.get(s.host()).get("journal"))) {
        out.accept("host " + s.host() + ": restoring the settings a previous run left behind");
        s.require("restore", List.of(), RESTORE_TIMEOUT);
      }
    }
  }

  private void restore(Hosts hosts) {
    for (AgentSession s : hosts.all()) {
      try {
        AgentResponse r = s.request("restore", List.of(), RESTORE_TIMEOUT);
        int restored = r.rows("restored", 3).size();
        for (String[] fail : r.rows("fail", 3)) {
          out.accept(
              "error: host "
                  + s.host()
                  + ": could not restore "
                  + fail[1]
                  + ": "
                  + (fail.length > 2 ? fail[2] : "")
                  + " (the journal is kept: run `tunelab restore`)");
        }
        out.accept("host " + s.host() + ": restored " + restored + " setting(s)");
      } catch (RuntimeException e) {
        out.accept(
            "error: "
                + e.getMessage()
                + " (settings not restored: run `tunelab restore`"
                + " once the host is back)");
      }
    }
  }

  private void teardown(
      Hosts hosts, Matrix matrix, List<Step> setupDone, Map<String, String> vars) {
    if (setupDone.isEmpty() && matrix.setup().size() > 0) {
      return;
    }
    Steps.teardown(hosts, matrix.teardown(), vars)
        .forEach(p -> out.accept("warning: teardown: " + p));
  }
}
