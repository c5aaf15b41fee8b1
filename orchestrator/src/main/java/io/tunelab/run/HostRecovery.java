package io.tunelab.run;

import io.tunelab.Backoff;
import io.tunelab.TunelabException;
import io.tunelab.agent.AgentException;
import io.tunelab.agent.Facts;
import io.tunelab.matrix.Durations;
import io.tunelab.matrix.Recovery;
import io.tunelab.store.Attempt;
import io.tunelab.store.RunStore;
import io.tunelab.trace.Phase;
import io.tunelab.trace.PhaseTrace;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Gets a trial through lost hosts (docs/runs.md). When a host's session dies during a trial — the
 * connection dropped or its keepalives went unanswered, the agent died or did not answer in time —
 * the host is reconnected to with backoff for up to the matrix's {@code reconnect}, its boot id is
 * checked again (a reboot is reported), a new agent takes over, the host's settings are marked
 * unknown so the next apply writes them all, and the trial runs again, up to {@code retries} times.
 * A host that rebooted lost what the open cell's steps made on it (an iSCSI login, a mount): the
 * cell is set up again before the trial runs again. Every attempt is recorded; a trial that failed
 * by itself is never run again.
 */
final class HostRecovery {
  private static final Duration FIRST_PAUSE = Duration.ofSeconds(1);
  private static final Duration LONGEST_PAUSE = Duration.ofSeconds(30);

  private final Hosts hosts;
  private final Map<String, HostKnobState> states;
  private final Map<String, String> bootIds;
  private final Map<String, Facts> facts;
  private final Recovery recovery;
  private final RunStore store;
  private final long experimentId;
  private final Consumer<String> out;
  private final BooleanSupplier interrupted;
  private final Clock clock;
  private final PhaseTrace trace;

  /**
   * @param facts every host's facts as the run started: the boot ids a reconnect compares with;
   *     kept current as hosts come back
   */
  HostRecovery(
      Hosts hosts,
      Map<String, HostKnobState> states,
      Map<String, Facts> facts,
      Recovery recovery,
      RunStore store,
      long experimentId,
      Consumer<String> out,
      BooleanSupplier interrupted,
      Clock clock,
      PhaseTrace trace) {
    this.trace = trace;
    this.hosts = hosts;
    this.states = states;
    this.bootIds = new HashMap<>();
    this.facts = facts;
    facts.forEach((host, f) -> bootIds.put(host, f.get("boot_id")));
    this.recovery = recovery;
    this.store = store;
    this.experimentId = experimentId;
    this.out = out;
    this.interrupted = interrupted;
    this.clock = clock;
  }

  /** Takes {@code bootId} as {@code host}'s from now on: the run booted it. */
  void booted(String host, String bootId) {
    bootIds.put(host, bootId);
  }

  /** Sets the open cell up again on hosts that rebooted; returns why it could not be. */
  interface Reopen {
    Optional<String> after(Set<String> rebooted);
  }

  /**
   * Runs {@code trial} until an attempt ends with no host lost, or retries run out (the trial then
   * fails with the reason). Records every attempt of trial {@code trialId} that a lost host ended;
   * the one that ends the trial (ok, or failed by itself) goes to {@code ending}, for the trial's
   * commit.
   *
   * @param prefix the trial's progress label, for the lines printed about a lost host
   * @param reopen called before the trial runs again when a lost host came back with a new boot id
   * @throws TrialFailure when the trial failed by itself, or was lost every time
   * @throws HostLost when a lost host did not come back in time
   * @throws AgentException when an agent refused a request (its session still open): no host was
   *     lost, so nothing is retried
   */
  TrialExecutor.Outcome run(
      long trialId,
      String prefix,
      Consumer<Attempt> ending,
      Supplier<TrialExecutor.Outcome> trial,
      Reopen reopen) {
    for (int attempt = 1; ; attempt++) {
      Instant start = clock.instant();
      String why;
      try {
        TrialExecutor.Outcome outcome = trial.get();
        if (interrupted.getAsBoolean()) {
          return outcome; // cut short by Ctrl-C: runs again on resume, no attempt to record
        }
        List<String> lost = hosts.lost();
        if (lost.isEmpty()) {
          ending.accept(new Attempt(start, clock.instant(), Attempt.Status.OK, null));
          return outcome;
        }
        // A host that only holds knobs may have rebooted while another ran the workload.
        why = "host " + String.join(", host ", lost) + ": the connection was lost during the trial";
      } catch (TrialFailure | AgentException e) {
        if (interrupted.getAsBoolean()) {
          throw e;
        }
        if (hosts.lost().isEmpty()) {
          // Failed by itself (workload, parser, timeout), or an agent refused a request.
          ending.accept(new Attempt(start, clock.instant(), Attempt.Status.FAILED, e.getMessage()));
          throw e;
        }
        why = e.getMessage();
      }
      Instant lostAt = clock.instant();
      out.accept(prefix + ": lost: " + why);
      List<String> events = new ArrayList<>();
      Set<String> rebooted = new LinkedHashSet<>();
      try {
        for (String host : hosts.lost()) {
          String before = bootIds.get(host);
          events.add(bringBack(host));
          if (before != null && !before.equals(bootIds.get(host))) {
            rebooted.add(host);
          }
        }
      } catch (HostLost e) {
        events.add(e.getMessage());
        throw e;
      } finally {
        recordLost(trialId, start, lostAt, why + "; " + String.join("; ", events));
      }
      if (attempt > recovery.retries()) {
        throw new TrialFailure(
            "a host was lost in each of "
                + attempt
                + " attempt(s) (retries: "
                + recovery.retries()
                + "); the last time: "
                + why,
            List.of());
      }
      if (!rebooted.isEmpty()) {
        String hostsText = "host " + String.join(", host ", rebooted);
        out.accept(prefix + ": " + hostsText + " rebooted: setting the cell up again");
        Optional<String> failed = reopen.after(rebooted);
        if (failed.isPresent()) {
          throw new TrialFailure(
              hostsText + " rebooted and the cell could not be set up again: " + failed.get(),
              List.of());
        }
      }
      out.accept(
          prefix + ": running the trial again (attempt " + (attempt + 1) + " of " + limit() + ")");
    }
  }

  private int limit() {
    return recovery.retries() + 1;
  }

  /**
   * Reconnects to {@code host} with backoff until it answers or the budget is spent; returns what
   * happened, for the record (a reboot among it).
   */
  private String bringBack(String host) {
    Duration budget = recovery.reconnect();
    out.accept("host " + host + ": reconnecting for up to " + Durations.format(budget) + " …");
    long began = System.nanoTime();
    Backoff backoff = new Backoff(FIRST_PAUSE, LONGEST_PAUSE, budget, interrupted);
    String last = "no attempt made";
    while (true) {
      if (interrupted.getAsBoolean()) {
        throw new HostLost("interrupted while reconnecting to host " + host);
      }
      try {
        Facts facts = hosts.reconnect(host).facts();
        this.facts.put(host, facts);
        states.get(host).forget();
        String seconds = String.format(Locale.ROOT, "%.1f s", (System.nanoTime() - began) / 1e9);
        String boot = facts.get("boot_id");
        String before = bootIds.put(host, boot);
        String event;
        if (before != null && !before.equals(boot)) {
          event =
              "host "
                  + host
                  + " rebooted (boot id "
                  + before
                  + " -> "
                  + boot
                  + "), back after "
                  + seconds
                  + ": its settings are written again";
          hosts
              .roles()
              .forEach(
                  (role, h) -> {
                    if (h.equals(host)) {
                      store.recordHost(experimentId, role, host, HostFacts.recorded(facts));
                    }
                  });
        } else {
          event =
              "host " + host + " reconnected after " + seconds + ": its settings are written again";
        }
        out.accept(event);
        return event;
      } catch (TunelabException e) {
        if (e.exitCode() == TunelabException.BAD_INPUT) {
          throw e; // the inventory itself is wrong: waiting will not fix it
        }
        last = e.getMessage();
      }
      if (!backoff.pause() && !interrupted.getAsBoolean()) {
        throw new HostLost(
            "host "
                + host
                + " did not come back within "
                + Durations.format(budget)
                + " (reconnect); last error: "
                + last);
      }
    }
  }

  /**
   * Records an attempt a lost host ended, at once: the run may stop before the trial's commit. The
   * record is secondary to the trial's own outcome: when the database refuses it (a full disk), the
   * outcome still goes on to be stored or kept in a side file.
   */
  private void recordLost(long trialId, Instant start, Instant end, String error) {
    long t = trace.start();
    try {
      store.recordAttempt(trialId, new Attempt(start, end, Attempt.Status.LOST, error));
      trace.phase(Phase.STORE_ATTEMPT, t);
    } catch (TunelabException e) {
      out.accept("warning: attempt of trial " + trialId + " not recorded: " + e.getMessage());
    }
  }
}
