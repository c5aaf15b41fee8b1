package io.tunelab.run;

import io.tunelab.TunelabException;
import io.tunelab.agent.AgentException;
import io.tunelab.agent.AgentSession;
import io.tunelab.agent.Facts;
import io.tunelab.agent.PathFailure;
import io.tunelab.agent.RestoreResult;
import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.Noise;
import io.tunelab.matrix.RatioGroups;
import io.tunelab.matrix.Recovery;
import io.tunelab.matrix.RepeatRule;
import io.tunelab.matrix.Search;
import io.tunelab.matrix.Step;
import io.tunelab.plan.BootPlan;
import io.tunelab.plan.Cell;
import io.tunelab.plan.ExperimentPlan;
import io.tunelab.search.Rounds;
import io.tunelab.search.SearchDesign;
import io.tunelab.search.Space;
import io.tunelab.store.Boot;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.RunStore;
import io.tunelab.store.StoredExperiment;
import io.tunelab.store.StoredPlan;
import io.tunelab.store.TestbedHost;
import io.tunelab.store.TrialRef;
import io.tunelab.trace.PhaseTrace;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Wires the pure parts to the hosts and the store: setup, preflight, the plan, every trial with its
 * cells set up and torn down around it, and — whatever happens — the last cell's teardown, restore
 * and teardown.
 */
public final class ExperimentRunner {
  private final HostConnector connector;
  private final RunStore store;
  private final Consumer<String> out;
  private final String toolVersion;
  private final RunEvents listener;
  private final Clock clock;
  private final Instant deadline;
  private final Duration reconnect;
  private PhaseTrace trace = PhaseTrace.off();
  private boolean keepKernels;
  private volatile boolean interrupted;
  private volatile Hosts liveHosts;
  private final CountDownLatch finished = new CountDownLatch(1);

  public ExperimentRunner(
      HostConnector connector, RunStore store, Consumer<String> out, String toolVersion) {
    this(
        connector,
        store,
        out,
        toolVersion,
        new Options(RunListener.printing(out), Clock.systemUTC(), null, null));
  }

  /**
   * How a run reports and when it stops.
   *
   * @param listener hears every trial's progress
   * @param clock what {@code maxTime} is measured on
   * @param maxTime with it, no trial starts once that much time has passed from the runner's
   *     creation (the run then ends interrupted, the rest left for {@code resume}); or null
   * @param reconnect how long to reconnect to a lost host, overriding the matrix's {@code
   *     reconnect} ({@code run --reconnect}); null for the matrix's
   */
  public record Options(RunListener listener, Clock clock, Duration maxTime, Duration reconnect) {}

  /**
   * A runner that reports progress and stops as {@code options} say. It keeps its events in {@code
   * store} itself; {@code out} gets the other lines it prints.
   */
  public ExperimentRunner(
      HostConnector connector,
      RunStore store,
      Consumer<String> out,
      String toolVersion,
      Options options) {
    this.connector = connector;
    this.store = store;
    this.listener = new RunEvents(store, options.listener(), options.maxTime());
    this.out = this.listener.lines(out);
    this.toolVersion = toolVersion;
    this.clock = options.clock();
    this.deadline =
        options.maxTime() == null ? null : options.clock().instant().plus(options.maxTime());
    this.reconnect = options.reconnect();
  }

  /** When no trial may start any more ({@code maxTime} from the runner's creation), or null. */
  public Instant deadline() {
    return deadline;
  }

  /** Records how long each phase of each trial takes in {@code trace}; returns this runner. */
  public ExperimentRunner traced(PhaseTrace trace) {
    this.trace = trace;
    return this;
  }

  /**
   * Leaves every host on the kernel it ran last, instead of booting it back into the one it ran at
   * the start ({@code --keep-kernel}); returns this runner.
   */
  public ExperimentRunner keepingKernels(boolean keep) {
    this.keepKernels = keep;
    return this;
  }

  /** Runs a new experiment from a validated matrix. */
  public RunSummary run(Matrix matrix) {
    return recorded(matrix, null);
  }

  /**
   * Continues an experiment: only its unfinished trials run, none is repeated. A trial a full disk
   * kept aside is stored first, not run again.
   */
  public RunSummary resume(StoredExperiment experiment, Matrix matrix) {
    return recorded(matrix.withSeed(experiment.seed()), experiment);
  }

  private RunSummary recorded(Matrix matrix, StoredExperiment resumed) {
    if (resumed != null) {
      store.importKeptTrials(resumed.id()).forEach(out);
    }
    if (!store.reserveForKeptTrials()) {
      out.accept(
          "warning: less than 1 MiB free beside "
              + store.location()
              + ": a trial the database refuses for lack of space may be lost");
    }
    try {
      return execute(matrix, resumed);
    } catch (RuntimeException e) {
      listener.error(String.valueOf(e.getMessage()));
      throw e;
    }
  }

  /**
   * Asks a running experiment to stop (Ctrl-C): the current workload is killed on its host, then
   * the run restores every host and tears down as usual. Waits for that to finish.
   */
  public void interrupt(Duration wait) {
    out.accept("interrupted: stopping the workload, restoring every host …");
    interrupted = true;
    Hosts hosts = liveHosts;
    if (hosts != null) {
      // A trial not yet released never runs; one already running is cancelled below.
      hosts.stop();
      for (AgentSession session : hosts.all()) {
        try {
          session.cancel();
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

  private RunSummary execute(Matrix matrix, StoredExperiment resumed) {
    ExperimentPlan plan = ExperimentPlan.of(matrix);
    List<Cell> cells = plan.cells();
    // A search that cannot be run is refused before any host is touched.
    Rounds rounds = designOf(matrix, plan);
    BootPlan bootPlan = BootPlan.of(matrix);
    if (resumed != null && !bootPlan.none()) {
      BootWait.finishOpenBoots(store, resumed.id(), matrix.roles(), connector, out);
    }
    try (Hosts hosts = Hosts.connect(matrix.roles(), connector, trace)) {
      liveHosts = hosts;
      Map<String, Facts> facts = HostFacts.gather(hosts);
      Map<String, List<NoiseChecks.Check>> noise = noise(matrix, hosts);
      KernelPreflight.check(
          hosts, bootPlan, cells, connector, startReleases(bootPlan, facts, resumed));
      Map<String, String> vars = new LinkedHashMap<>();
      List<Step> setupDone = new ArrayList<>();
      long experimentId = -1;
      boolean applied = false;
      HostBoots boots = null;
      CellSteps cellSteps = null;
      try {
        restoreLeftovers(hosts, facts);
        if (resumed != null && resumed.status() == ExperimentStatus.RUNNING) {
          tearDownKilledRun(hosts, matrix, resumed.id());
        }
        for (Step step : matrix.setup()) {
          setupDone.add(step);
          Steps.run(hosts, step, vars);
        }
        ExperimentKnobs knobs = new ExperimentKnobs(matrix, cells, vars);
        Map<String, Map<String, String>> originals = Preflight.check(hosts, knobs, cells, vars);
        // A new plan's trials come back from the store with it: read again, 300,000 took 0.3 s.
        List<TrialRef> trials = null;
        if (resumed != null) {
          experimentId = resumed.id();
        } else {
          // A search stores its cells and trials as it draws them.
          StoredPlan stored =
              store.storePlan(matrix.search() == null ? plan : plan.withoutTrials(), toolVersion);
          experimentId = stored.experimentId();
          trials = stored.trials();
        }
        recordHosts(experimentId, matrix.roles(), facts, noise);
        store.recordVariables(experimentId, vars);
        store.setExperimentStatus(experimentId, ExperimentStatus.RUNNING);
        Map<String, Map<String, String>> noiseFacts = new LinkedHashMap<>();
        noise.forEach((host, checks) -> noiseFacts.put(host, NoiseChecks.facts(checks)));
        HostStates states =
            new HostStates(facts, originals, matrix.roles(), noiseFacts, store, experimentId);
        RunContext run =
            new RunContext(
                hosts,
                states,
                connector,
                store,
                experimentId,
                out,
                () -> interrupted,
                clock,
                trace);
        applied = true;
        TrialLoop.Parts parts = parts(run, matrix, plan, bootPlan, knobs, vars);
        cellSteps = parts.cellSteps();
        boots = parts.boots();
        return new TrialLoop(run, parts, listener)
            .run(
                experimentId,
                source(run, matrix.search(), rounds, parts, trials),
                () -> interrupted,
                this::timeUp);
      } catch (RuntimeException e) {
        if (experimentId > 0) {
          try {
            store.setExperimentStatus(
                experimentId, interrupted ? ExperimentStatus.INTERRUPTED : ExperimentStatus.FAILED);
          } catch (RuntimeException second) {
            // A full disk refuses this too: the first error is the one to report.
            e.addSuppressed(second);
          }
        }
        throw e;
      } finally {
        trace.trial(0); // what follows belongs to no trial
        if (boots != null && !keepKernels && !interrupted) {
          boots.home();
        }
        if (applied) {
          restore(hosts, cellSteps);
        }
        teardown(hosts, matrix, setupDone, vars);
        liveHosts = null;
        finished.countDown();
      }
    }
  }

  /**
   * Releases what a killed controller's open cell and setup made (we hold every agent lock now).
   */
  private void tearDownKilledRun(Hosts hosts, Matrix matrix, long experimentId) {
    Map<String, String> old = new LinkedHashMap<>(store.variables(experimentId));
    CellSteps.tearDownLeftover(store, experimentId, hosts, matrix, old)
        .forEach(p -> out.accept("warning: " + p));
    teardown(hosts, matrix, matrix.setup(), old);
  }

  /** Where the loop's trials come from: the stored plan, or a search's rounds. */
  private TrialSource source(
      RunContext run, Search search, Rounds rounds, TrialLoop.Parts parts, List<TrialRef> planned) {
    if (search == null) {
      return TrialSource.of(planned != null ? planned : store.unfinishedTrials(run.experimentId()));
    }
    return new SearchTrials(run, search, rounds, parts.cells());
  }

  /** The search's rounds; null without a search. */
  private static Rounds designOf(Matrix matrix, ExperimentPlan plan) {
    if (matrix.search() == null) {
      return null;
    }
    Rounds design;
    try {
      design =
          SearchDesign.of(
              matrix.search(), matrix.axes(), Space.of(matrix.axes(), plan.cells()), matrix.seed());
    } catch (IllegalArgumentException e) {
      throw new TunelabException(TunelabException.BAD_INPUT, "search.method: " + e.getMessage());
    }
    BootPlan boots = BootPlan.of(matrix);
    if (boots.none()) {
      return design;
    }
    // Over a kernel axis each round runs in blocks of one release, so it boots as little as it can.
    return measured -> {
      Rounds.Decision d = design.next(measured);
      return new Rounds.Decision(
          boots.blocks(d.cells(), plan.cells(), measured.size() + 1), d.states(), d.winner());
    };
  }

  /** The parts the trial loop drives, on the run's shared context. */
  private TrialLoop.Parts parts(
      RunContext run,
      Matrix matrix,
      ExperimentPlan plan,
      BootPlan bootPlan,
      ExperimentKnobs knobs,
      Map<String, String> vars) {
    Recovery recovery =
        reconnect == null ? matrix.recovery() : matrix.recovery().withReconnect(reconnect);
    TrialExecutor executor = new TrialExecutor(matrix, run.hosts(), run.states().knobs(), trace);
    // A search adds its default cell when its confirmation begins.
    List<Cell> cells = new ArrayList<>(plan.cells());
    HostBoots boots =
        new HostBoots(
            run,
            bootPlan,
            cells,
            plan.trials(),
            host -> readOriginals(run.hosts(), knobs, cells, vars, host, run.states().get(host)));
    if (matrix.search() != null) {
      boots.allowOneBootPerTrial(matrix.search().budget());
    }
    return new TrialLoop.Parts(
        executor,
        new HostRecovery(run, recovery),
        new CellSteps(run, matrix, knobs, executor, vars),
        boots,
        knobs,
        cells,
        new CellTargets(
            matrix.repeatRule(), store, ratioTargets(matrix, cells, bootPlan, run.experimentId())));
  }

  /**
   * The groups a {@code compare:} rule judges together; null without one. With {@code boots: N} the
   * rule counts boots: a pilot of the boots the first {@code min} repetitions fall in (two at
   * least), and at most N.
   */
  private RatioTargets ratioTargets(
      Matrix matrix, List<Cell> cells, BootPlan bootPlan, long experimentId) {
    RepeatRule rule = matrix.repeatRule();
    if (!rule.compares()) {
      return null;
    }
    RatioTargets.BootUnit unit = null;
    if (matrix.boots() > 1) {
      int pilot = Math.max(2, bootPlan.round(matrix.warmup() + rule.min()));
      rule =
          new RepeatRule(
              Math.min(pilot, matrix.boots()),
              matrix.boots(),
              rule.target(),
              rule.metric(),
              rule.compare());
      unit = new RatioTargets.BootUnit(bootPlan, experimentId);
    }
    Map<Integer, Map<String, String>> params = new LinkedHashMap<>();
    cells.forEach(c -> params.put(c.ordinal(), c.params()));
    return new RatioTargets(rule, RatioGroups.of(rule, matrix.axes(), params), store, unit);
  }

  /**
   * Reads the originals of {@code host}'s knobs again on the kernel it just booted; returns why its
   * trials cannot run there (a knob that kernel lacks or refuses), or empty.
   */
  private static Optional<String> readOriginals(
      Hosts hosts,
      ExperimentKnobs knobs,
      List<Cell> cells,
      Map<String, String> vars,
      String host,
      HostState state) {
    Preflight.Findings found = Preflight.inspect(hosts, knobs, cells, vars);
    List<String> mine =
        found.problems().stream().filter(p -> p.startsWith("host " + host + ": ")).toList();
    state.originalsRead(found.originals().getOrDefault(host, Map.of()));
    return mine.isEmpty()
        ? Optional.empty()
        : Optional.of("preflight on the new kernel: " + String.join("; ", mine));
  }

  /**
   * The release each booted host started the experiment on: recorded on its first run, else what it
   * runs now.
   */
  private Map<String, String> startReleases(
      BootPlan bootPlan, Map<String, Facts> facts, StoredExperiment resumed) {
    Map<String, String> start = new LinkedHashMap<>();
    List<Boot> recorded =
        resumed == null || bootPlan.none() ? List.of() : store.boots(resumed.id());
    for (String host : bootPlan.hosts()) {
      start.put(
          host,
          recorded.stream()
              .filter(b -> b.host().equals(host) && b.reason() == Boot.Reason.START)
              .map(Boot::release)
              .findFirst()
              .orElse(facts.get(host).kernelRelease()));
    }
    return start;
  }

  private boolean timeUp() {
    return deadline != null && !clock.instant().isBefore(deadline);
  }

  private void recordHosts(
      long experimentId,
      Map<String, String> roles,
      Map<String, Facts> facts,
      Map<String, List<NoiseChecks.Check>> noise) {
    roles.forEach(
        (role, host) -> {
          Map<String, String> recorded = HostFacts.recorded(facts.get(host));
          recorded.putAll(NoiseChecks.facts(noise.getOrDefault(host, List.of())));
          store.recordHost(experimentId, role, host, recorded);
        });
    List<TestbedHost> testbed = new ArrayList<>();
    roles.forEach((role, host) -> testbed.add(connector.identity(role, host)));
    store.recordTestbed(experimentId, testbed);
  }

  /**
   * Every host's noise checks, before anything is changed on any host: their warnings printed once,
   * or under {@code noise: strict} the run refused.
   */
  private Map<String, List<NoiseChecks.Check>> noise(Matrix matrix, Hosts hosts) {
    Map<String, List<NoiseChecks.Check>> noise =
        hosts.parallel(s -> NoiseChecks.of(s.host(), s.noise()));
    List<String> warnings = new ArrayList<>();
    noise.values().forEach(checks -> warnings.addAll(NoiseChecks.warnings(checks)));
    if (!warnings.isEmpty() && matrix.noise() == Noise.STRICT) {
      throw new TunelabException(
          TunelabException.HOST_REFUSED,
          "noise: strict: "
              + warnings.size()
              + " noise check(s) warn, so the run does not start and nothing was changed on any"
              + " host (fix them, or set noise: warn):\n  "
              + String.join("\n  ", warnings));
    }
    warnings.forEach(w -> out.accept("warning: noise: " + w));
    return noise;
  }

  /** A journal left by a crashed run is replayed first, so originals are read from a clean host. */
  private void restoreLeftovers(Hosts hosts, Map<String, Facts> facts) {
    for (AgentSession s : hosts.all()) {
      if (facts.get(s.host()).journalPresent()) {
        listener.hostEvent(s.host(), "restoring the settings a previous run left behind");
        RestoreResult r = s.restore();
        if (!r.ok()) {
          throw new AgentException(
              s.host(),
              "cannot restore the settings a previous run left behind: "
                  + (r.failures().isEmpty()
                      ? "status " + r.status()
                      : r.failures().stream()
                          .map(PathFailure::toString)
                          .collect(Collectors.joining("; "))));
        }
      }
    }
  }

  /**
   * Restores every host at once, so one hung host costs the others nothing; each host's restore
   * gives up after {@link AgentSession#RESTORE_TIMEOUT}, inside the two-minute budget Ctrl-C waits
   * for (a host left out keeps its journal, and its agent restores it by itself).
   */
  private void restore(Hosts hosts, CellSteps cells) {
    hosts.parallel(
        s -> {
          restoreOne(s, cells);
          return s.host();
        });
  }

  /**
   * A path gone by now is a warning unless a cell's teardown set it back before its device went
   * away (the LUN of a cell that logged out).
   */
  private void restoreOne(AgentSession s, CellSteps cells) {
    try {
      RestoreResult r = s.restore();
      for (PathFailure fail : r.failures()) {
        out.accept(
            "error: host "
                + s.host()
                + ": could not restore "
                + fail
                + " (the journal is kept: run `tunelab restore`)");
      }
      for (String path : r.gone()) {
        if (cells == null || !cells.setBack(s.host(), path)) {
          out.accept("warning: host " + s.host() + ": " + path + " is gone; nothing to restore");
        }
      }
      listener.hostEvent(s.host(), "restored " + r.restored().size() + " setting(s)");
    } catch (RuntimeException e) {
      out.accept(
          "error: "
              + e.getMessage()
              + " (settings not restored: run `tunelab restore`"
              + " once the host is back)");
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
