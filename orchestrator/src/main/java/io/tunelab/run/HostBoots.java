package io.tunelab.run;

import io.tunelab.Backoff;
import io.tunelab.TunelabException;
import io.tunelab.agent.AgentSession;
import io.tunelab.agent.Facts;
import io.tunelab.agent.RestoreResult;
import io.tunelab.inventory.BootSpec;
import io.tunelab.matrix.Durations;
import io.tunelab.plan.BootPlan;
import io.tunelab.plan.Cell;
import io.tunelab.plan.Trial;
import io.tunelab.store.Boot;
import io.tunelab.store.RunStore;
import io.tunelab.store.TrialHost;
import io.tunelab.workload.JobResult;
import io.tunelab.workload.ProcessPlan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Boots each host into the release a trial needs (docs/kernels.md), one host at a time: journal
 * restored, boot asked for ({@code boots} row {@code booting}), SSH awaited with backoff up to the
 * host's {@code boot_timeout}, release and a new boot id checked ({@code up}), then a new agent,
 * fresh facts and the knobs' originals read again on the new kernel. A host not back in time is
 * power-cycled when the inventory says how; the release it did not boot fails its trials with the
 * reason, and the run goes on with the next one.
 */
final class HostBoots {
  /** Boots a host may take beyond what the plan needs, before the reboot-loop guard stops it. */
  static final int SPARE_BOOTS = 2;

  private static final Duration FIRST_PAUSE = Duration.ofSeconds(2);
  private static final Duration LONGEST_PAUSE = Duration.ofSeconds(10);
  private static final Duration COMMAND_LIMIT = Duration.ofMinutes(2);

  private final BootPlan plan;
  private final List<Cell> cells;
  private final Hosts hosts;
  private final HostConnector connector;
  private final RunStore store;
  private final long experimentId;
  private final Map<String, Facts> facts;
  private final AfterBoot afterBoot;
  private final Consumer<String> out;
  private final BooleanSupplier interrupted;
  private final Map<String, String> start = new LinkedHashMap<>();
  private final Map<String, BootPlan.Want> current = new LinkedHashMap<>();
  private final Map<String, String> failed = new LinkedHashMap<>();
  private final Map<String, Integer> booted = new LinkedHashMap<>();
  private final Map<String, Integer> limits = new LinkedHashMap<>();

  /** What the run does once a host is back on a new boot: returns why its trials cannot run. */
  interface AfterBoot {
    Optional<String> booted(String host, Facts facts);
  }

  /**
   * Reads where every booted host starts (recording it on the experiment's first run) and what it
   * runs now.
   *
   * @param facts every host's facts, kept current here as hosts boot
   * @param trials the whole plan, for the reboot-loop guard
   */
  HostBoots(
      BootPlan plan,
      List<Cell> cells,
      List<Trial> trials,
      Hosts hosts,
      HostConnector connector,
      RunStore store,
      long experimentId,
      Map<String, Facts> facts,
      AfterBoot afterBoot,
      Consumer<String> out,
      BooleanSupplier interrupted) {
    this.plan = plan;
    this.cells = cells;
    this.hosts = hosts;
    this.connector = connector;
    this.store = store;
    this.experimentId = experimentId;
    this.facts = facts;
    this.afterBoot = afterBoot;
    this.out = out;
    this.interrupted = interrupted;
    List<Boot> boots = plan.none() ? List.of() : store.boots(experimentId);
    for (String host : plan.hosts()) {
      Facts now = facts.get(host);
      String release =
          boots.stream()
              .filter(b -> b.host().equals(host) && b.reason() == Boot.Reason.START)
              .map(Boot::release)
              .findFirst()
              .orElse(null);
      if (release == null) {
        release = now.kernelRelease();
        store.startBoot(
            experimentId, host, release, "none", Boot.Reason.START, 1, now.get("boot_id"));
      }
      start.put(host, release);
      int round = 1;
      for (Boot b : boots) {
        if (b.host().equals(host) && b.state() == Boot.State.UP) {
          if (now.get("boot_id").equals(b.bootIdAfter())) {
            round = b.round();
          }
        }
      }
      current.put(host, new BootPlan.Want(now.kernelRelease(), round));
      booted.put(
          host,
          (int)
              boots.stream()
                  .filter(b -> b.host().equals(host))
                  .filter(b -> b.reason() == Boot.Reason.KERNEL || b.reason() == Boot.Reason.HOME)
                  .count());
      limits.put(host, plan.bootsNeeded(host, trials, cells, release) + SPARE_BOOTS);
    }
  }

  /** The release each booted host ran when the experiment started. */
  Map<String, String> start() {
    return start;
  }

  /** Whether a host must boot before run {@code rep} of {@code cell}. */
  boolean needed(Cell cell, int rep) {
    if (plan.none()) {
      return false;
    }
    for (Map.Entry<String, BootPlan.Want> w : plan.wants(cell, rep).entrySet()) {
      if (!w.getValue().resolved(start.get(w.getKey())).equals(current.get(w.getKey()))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Boots the hosts run {@code rep} of {@code cell} needs on another release or boot; returns why
   * the trial cannot run (its release did not boot), or empty.
   *
   * @throws HostLost when a host is not back and cannot be power-cycled, is stopped by the
   *     reboot-loop guard, or Ctrl-C came: the run stops, the rest is left for resume
   */
  Optional<String> prepare(Cell cell, int rep) {
    for (Map.Entry<String, BootPlan.Want> w : plan.wants(cell, rep).entrySet()) {
      String host = w.getKey();
      BootPlan.Want want = w.getValue().resolved(start.get(host));
      if (want.equals(current.get(host))) {
        continue;
      }
      String earlier = failed.get(host + " " + want.release());
      if (earlier != null) {
        return Optional.of(earlier);
      }
      Optional<String> why = boot(host, want, Boot.Reason.KERNEL);
      if (why.isPresent()) {
        failed.put(host + " " + want.release(), why.get());
        return why;
      }
    }
    return Optional.empty();
  }

  /**
   * Boots every host back into the release it started on; a host that cannot be is named on {@code
   * out}.
   */
  void home() {
    for (String host : plan.hosts()) {
      String release = start.get(host);
      if (current.get(host).release().equals(release)) {
        continue;
      }
      try {
        boot(host, new BootPlan.Want(release, 1), Boot.Reason.HOME)
            .ifPresent(
                why ->
                    out.accept(
                        "error: host " + host + ": not booted back into " + release + ": " + why));
      } catch (RuntimeException e) {
        out.accept(
            "error: host " + host + ": not booted back into " + release + ": " + e.getMessage());
      }
    }
  }

  /** What each host runs now, for the trial's record. */
  List<TrialHost> ran() {
    List<TrialHost> ran = new ArrayList<>();
    facts.forEach(
        (host, f) ->
            ran.add(
                new TrialHost(
                    host,
                    String.valueOf(f.kernelRelease()),
                    String.valueOf(f.get("boot_id")),
                    f.get("cmdline") == null ? "" : f.get("cmdline"))));
    return ran;
  }

  private Optional<String> boot(String host, BootPlan.Want want, Boot.Reason reason) {
    int count = booted.merge(host, 1, Integer::sum);
    if (count > limits.get(host)) {
      throw new HostLost(
          "host "
              + host
              + " would boot "
              + count
              + " times, more than this plan needs ("
              + (limits.get(host) - SPARE_BOOTS)
              + ", and "
              + SPARE_BOOTS
              + " spare): stopped by the reboot-loop guard");
    }
    BootSpec spec = connector.boot(host);
    String before = facts.get(host).get("boot_id");
    AgentSession session = hosts.session(host);
    RestoreResult restored = session.restore();
    if (!restored.ok()) {
      out.accept(
          "warning: host "
              + host
              + ": not every setting was restored before the boot; the new kernel starts from"
              + " its own values");
    }
    long id =
        store.startBoot(
            experimentId, host, want.release(), spec.method().word(), reason, want.round(), before);
    out.accept(
        "host "
            + host
            + ": booting "
            + want.release()
            + " ("
            + spec.method().word()
            + (want.round() > 1 ? ", boot " + want.round() + " of " + plan.boots() : "")
            + "), waiting up to "
            + Durations.format(spec.timeout())
            + " …");
    long began = System.nanoTime();
    JobResult asked =
        session
            .run(
                List.of(new ProcessPlan("boot", BootCommands.boot(spec, want.release()), null)),
                COMMAND_LIMIT)
            .jobs()
            .get(0);
    if (asked.exitCode() != 0) {
      List<String> err = asked.stderr();
      String why =
          "could not boot "
              + want.release()
              + " ("
              + spec.method().word()
              + " exited "
              + asked.exitCode()
              + (err.isEmpty() ? "" : ": " + err.get(err.size() - 1))
              + ")";
      store.finishBoot(id, Boot.State.FAILED, null, why);
      return Optional.of("host " + host + ": " + why);
    }
    session.close();
    connector.disconnect(host);
    Facts back = await(host, before, spec.timeout());
    if (back == null) {
      String why =
          "did not come back on "
              + want.release()
              + " within "
              + Durations.format(spec.timeout())
              + " (boot_timeout)";
      store.finishBoot(id, Boot.State.FAILED, null, why);
      return Optional.of("host " + host + ": " + why + "; " + powerCycle(host, spec, before));
    }
    String seconds =
        String.format(java.util.Locale.ROOT, "%.0f s", (System.nanoTime() - began) / 1e9);
    if (!want.release().equals(back.kernelRelease())) {
      String why =
          "came back on " + back.kernelRelease() + ", not " + want.release() + ", after " + seconds;
      store.finishBoot(id, Boot.State.FAILED, back.get("boot_id"), why);
      arrived(host, back, 1);
      return Optional.of("host " + host + ": " + why);
    }
    store.finishBoot(id, Boot.State.UP, back.get("boot_id"), null);
    out.accept("host " + host + ": up on " + want.release() + " after " + seconds);
    return arrived(host, back, want.round())
        .map(why -> "host " + host + ": on " + want.release() + ": " + why);
  }

  private Optional<String> arrived(String host, Facts back, int round) {
    facts.put(host, back);
    current.put(host, new BootPlan.Want(back.kernelRelease(), round));
    return afterBoot.booted(host, back);
  }

  /**
   * Power-cycles a host that did not come back, with the inventory's command, and waits for it
   * again; returns what happened, for the trials' reason.
   *
   * @throws HostLost when there is no such command or the host is not back after it
   */
  private String powerCycle(String host, BootSpec spec, String before) {
    if (spec.powerCycle() == null) {
      throw new HostLost(
          "host "
              + host
              + " did not come back within "
              + Durations.format(spec.timeout())
              + " (boot_timeout), and its inventory entry gives no power_cycle");
    }
    long id =
        store.startBoot(
            experimentId, host, start.get(host), "power-cycle", Boot.Reason.POWER_CYCLE, 1, before);
    out.accept("host " + host + ": power-cycling it: " + spec.powerCycle());
    String ran = PowerCycle.run(spec.powerCycle(), host);
    if (ran != null) {
      store.finishBoot(id, Boot.State.FAILED, null, ran);
      throw new HostLost("host " + host + ": power_cycle failed: " + ran);
    }
    Facts back = await(host, before, spec.timeout());
    if (back == null) {
      String why = "not back within " + Durations.format(spec.timeout()) + " after a power cycle";
      store.finishBoot(id, Boot.State.FAILED, null, why);
      throw new HostLost("host " + host + " " + why);
    }
    store.finishBoot(id, Boot.State.UP, back.get("boot_id"), null);
    arrived(host, back, 1);
    String line = "power-cycled, back on " + back.kernelRelease();
    out.accept("host " + host + ": " + line);
    return line;
  }

  /**
   * Reconnects with backoff until the host answers with another boot id than {@code before};
   * returns its facts, or null when {@code timeout} passed.
   */
  private Facts await(String host, String before, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    // The deadline is looked at after each try, not by the pauses: a try at the end still counts.
    Backoff backoff =
        new Backoff(FIRST_PAUSE, LONGEST_PAUSE, timeout.plus(LONGEST_PAUSE), interrupted);
    while (true) {
      backoff.pause();
      if (interrupted.getAsBoolean()) {
        throw new HostLost("interrupted while host " + host + " boots");
      }
      try {
        Facts f = hosts.reconnect(host).facts();
        if (!before.equals(f.get("boot_id"))) {
          return f;
        }
        // Still the old boot, on its way down.
        hosts.session(host).close();
      } catch (TunelabException e) {
        if (e.exitCode() == TunelabException.BAD_INPUT) {
          throw e;
        }
      }
      connector.disconnect(host);
      if (System.nanoTime() > deadline) {
        return null;
      }
    }
  }
}
