package io.tunelab.run;

import io.tunelab.Backoff;
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
import io.tunelab.workload.JobResult;
import io.tunelab.workload.ProcessPlan;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Boots each host into the release a trial needs (docs/kernels.md), one host at a time: journal
 * restored, boot asked for ({@code boots} row {@code booting}), SSH awaited with backoff up to the
 * host's {@code boot_timeout}, release and a new boot id checked ({@code up}), then a new agent,
 * fresh facts and the knobs' originals read again on the new kernel. A host not back in time is
 * power-cycled when the inventory says how; the release it did not boot fails its trials with the
 * reason, and the run goes on with the next one. A host that still answers on the boot before is
 * not power-cycled: its trials fail with that reason. The reboot-loop guard counts the boots of
 * this pass (this run or this resume) only.
 */
final class HostBoots {
  /** Boots a host may take beyond what the plan needs, before the reboot-loop guard stops it. */
  static final int SPARE_BOOTS = 2;

  private static final Duration FIRST_PAUSE = Duration.ofSeconds(2);
  private static final Duration LONGEST_PAUSE = Duration.ofSeconds(10);
  private static final Duration COMMAND_LIMIT = Duration.ofMinutes(2);

  private final RunContext run;
  private final BootPlan plan;
  private final List<Cell> cells;
  private final AfterBoot afterBoot;
  private final Map<String, String> start = new LinkedHashMap<>();
  private final Map<String, String> failed = new LinkedHashMap<>();
  private final Map<String, Integer> booted = new LinkedHashMap<>();
  private final Map<String, Integer> limits = new LinkedHashMap<>();

  /** What the run does once a host is back on a new boot: returns why its trials cannot run. */
  interface AfterBoot {
    Optional<String> booted(String host);
  }

  /**
   * Reads where every booted host starts (recording it on the experiment's first run) and which
   * round of its release it is on.
   *
   * @param trials the whole plan, for the reboot-loop guard
   */
  HostBoots(
      RunContext run, BootPlan plan, List<Cell> cells, List<Trial> trials, AfterBoot afterBoot) {
    this.run = run;
    this.plan = plan;
    this.cells = cells;
    this.afterBoot = afterBoot;
    List<Boot> boots = plan.none() ? List.of() : run.store().boots(run.experimentId());
    for (String host : plan.hosts()) {
      HostState now = run.states().get(host);
      String release =
          boots.stream()
              .filter(b -> b.host().equals(host) && b.reason() == Boot.Reason.START)
              .map(Boot::release)
              .findFirst()
              .orElse(null);
      if (release == null) {
        release = now.release();
        run.store()
            .startBoot(
                run.experimentId(),
                host,
                release,
                "none",
                Boot.Reason.START,
                plan.start(host, release).round(),
                now.bootId());
      }
      start.put(host, release);
      for (Boot b : boots) {
        if (b.host().equals(host)
            && b.reason() != Boot.Reason.START
            && b.state() == Boot.State.UP
            && now.bootId().equals(b.bootIdAfter())) {
          now.resumeRound(b.round());
        }
      }
      // Per pass: boots of an earlier run or resume did what they were for.
      booted.put(host, 0);
      limits.put(host, plan.bootsNeeded(host, trials, cells, release) + SPARE_BOOTS);
    }
  }

  /**
   * The guard's limit for a search, whose trials are drawn as it goes: a boot before each of its
   * {@code trials} at most, and one home.
   */
  void allowOneBootPerTrial(int trials) {
    limits.replaceAll((host, planned) -> trials + 1 + SPARE_BOOTS);
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
      if (!w.getValue().resolved(start.get(w.getKey())).equals(current(w.getKey()))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Why run {@code rep} of {@code cell} must not be measured as it ran: a host on another release
   * than the cell's (it came back on another kernel after the trial began); empty when every host
   * runs the cell's.
   */
  Optional<String> wrongRelease(Cell cell, int rep) {
    if (plan.none()) {
      return Optional.empty();
    }
    for (Map.Entry<String, BootPlan.Want> w : plan.wants(cell, rep).entrySet()) {
      String host = w.getKey();
      String want = w.getValue().resolved(start.get(host)).release();
      String now = run.states().get(host).release();
      if (!want.equals(now)) {
        return Optional.of("host " + host + " runs " + now + ", not the cell's " + want);
      }
    }
    return Optional.empty();
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
      if (want.equals(current(host))) {
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
      if (run.states().get(host).release().equals(release)) {
        continue;
      }
      String why;
      try {
        why = boot(host, new BootPlan.Want(release, 1), Boot.Reason.HOME).orElse(null);
      } catch (RuntimeException e) {
        why = e.getMessage();
      }
      if (why != null) {
        run.out().accept("error: host " + host + ": not booted back into " + release + ": " + why);
      }
    }
  }

  /** Where a host stands; under like boots, a boot the run did not make is no round at all. */
  private BootPlan.Want current(String host) {
    HostState s = run.states().get(host);
    return s.planned() || !plan.like(host)
        ? new BootPlan.Want(s.release(), s.round())
        : plan.start(host, s.release());
  }

  private Optional<String> boot(String host, BootPlan.Want want, Boot.Reason reason) {
    guard(host);
    RunStore store = run.store();
    BootSpec spec = run.connector().boot(host);
    String before = run.states().get(host).bootId();
    AgentSession session = run.hosts().session(host);
    RestoreResult restored = session.restore();
    if (!restored.ok()) {
      run.out()
          .accept(
              "warning: host "
                  + host
                  + ": not every setting was restored before the boot; the new kernel starts"
                  + " from its own values");
    }
    long id =
        store.startBoot(
            run.experimentId(),
            host,
            want.release(),
            spec.method().word(),
            reason,
            want.round(),
            before);
    announce(host, want, spec);
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
      // The restore above took the knobs back: the next apply writes them all.
      run.states().get(host).knobs().forget();
      return Optional.of("host " + host + ": " + why);
    }
    session.close();
    run.connector().disconnect(host);
    BootArrival.Seen seen = await(host, before, spec.timeout());
    if (seen.neverWentDown()) {
      String why =
          "never went down: it still answers on boot "
              + before
              + " after "
              + Durations.format(spec.timeout())
              + " (boot_timeout), so it is not power-cycled";
      store.finishBoot(id, Boot.State.FAILED, null, why);
      run.states().back(host, seen.facts());
      return Optional.of("host " + host + ": " + why);
    }
    if (seen.facts() == null) {
      String why =
          "did not come back on "
              + want.release()
              + " within "
              + Durations.format(spec.timeout())
              + " (boot_timeout)";
      store.finishBoot(id, Boot.State.FAILED, null, why);
      return Optional.of("host " + host + ": " + why + "; " + powerCycle(host, spec, before));
    }
    Facts back = seen.facts();
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
    run.out().accept("host " + host + ": up on " + want.release() + " after " + seconds);
    return arrived(host, back, want.round())
        .map(why -> "host " + host + ": on " + want.release() + ": " + why);
  }

  /** Counts a boot of {@code host} in this pass; stops the run past what the plan needs. */
  private void guard(String host) {
    int count = booted.merge(host, 1, Integer::sum);
    if (count > limits.get(host)) {
      throw new HostLost(
          "host "
              + host
              + " would boot "
              + count
              + " times in this pass, more than this plan needs ("
              + (limits.get(host) - SPARE_BOOTS)
              + ", and "
              + SPARE_BOOTS
              + " spare): stopped by the reboot-loop guard");
    }
  }

  private void announce(String host, BootPlan.Want want, BootSpec spec) {
    run.out()
        .accept(
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
  }

  private Optional<String> arrived(String host, Facts back, int round) {
    run.states().booted(host, back, round);
    return afterBoot.booted(host);
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
    RunStore store = run.store();
    // A cold boot through the firmware: under like boots it measures nothing, as the start's.
    int round = plan.start(host, start.get(host)).round();
    long id =
        store.startBoot(
            run.experimentId(),
            host,
            start.get(host),
            "power-cycle",
            Boot.Reason.POWER_CYCLE,
            round,
            before);
    run.out().accept("host " + host + ": power-cycling it: " + spec.powerCycle());
    String ran = PowerCycle.run(spec.powerCycle(), host);
    if (ran != null) {
      store.finishBoot(id, Boot.State.FAILED, null, ran);
      throw new HostLost("host " + host + ": power_cycle failed: " + ran);
    }
    Facts back = await(host, before, spec.timeout()).facts();
    if (back == null || before.equals(back.get("boot_id"))) {
      String why = "not back within " + Durations.format(spec.timeout()) + " after a power cycle";
      store.finishBoot(id, Boot.State.FAILED, null, why);
      throw new HostLost("host " + host + " " + why);
    }
    store.finishBoot(id, Boot.State.UP, back.get("boot_id"), null);
    arrived(host, back, round);
    String line = "power-cycled, back on " + back.kernelRelease();
    run.out().accept("host " + host + ": " + line);
    return line;
  }

  /** Waits for {@code host} to answer on another boot id than {@code before}. */
  private BootArrival.Seen await(String host, String before, Duration timeout) {
    Backoff backoff =
        new Backoff(FIRST_PAUSE, LONGEST_PAUSE, timeout.plus(LONGEST_PAUSE), run.interrupted());
    BootArrival.Probe probe =
        new BootArrival.Probe() {
          @Override
          public Facts answer() {
            return run.hosts().reconnect(host).facts();
          }

          @Override
          public void drop() {
            AgentSession s = run.hosts().session(host);
            if (s != null) {
              s.close();
            }
            run.connector().disconnect(host);
          }
        };
    return BootArrival.await(host, before, timeout, backoff, probe, () -> false, run.interrupted());
  }
}
