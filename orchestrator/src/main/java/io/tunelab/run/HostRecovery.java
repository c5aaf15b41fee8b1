package io.tunelab.run;

import io.tunelab.Backoff;
import io.tunelab.TunelabException;
import io.tunelab.agent.AgentException;
import io.tunelab.agent.Facts;
import io.tunelab.matrix.Durations;
import io.tunelab.matrix.Recovery;
import io.tunelab.store.Attempt;
import io.tunelab.trace.Phase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
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

  private final RunContext run;
  private final Recovery recovery;

  HostRecovery(RunContext run, Recovery recovery) {
    this.run = run;
    this.recovery = recovery;
  }

  /**
   * Sets the open cell up again on hosts that rebooted (booting a host that came up on another
   * release back into the cell's first); returns why it could not be.
   */
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
      Instant start = run.clock().instant();
      String why;
      try {
        TrialExecutor.Outcome outcome = trial.get();
        if (run.interrupted().getAsBoolean()) {
          return outcome; // cut short by Ctrl-C: runs again on resume, no attempt to record
        }
        List<String> lost = run.hosts().lost();
        if (lost.isEmpty()) {
          ending.accept(new Attempt(start, run.clock().instant(), Attempt.Status.OK, null));
          return outcome;
        }
        // A host that only holds knobs may have rebooted while another ran the workload.
        why = "host " + String.join(", host ", lost) + ": the connection was lost during the trial";
      } catch (TrialFailure | AgentException e) {
        if (run.interrupted().getAsBoolean()) {
          throw e;
        }
        if (run.hosts().lost().isEmpty()) {
          // Failed by itself (workload, parser, timeout), or an agent refused a request.
          ending.accept(
              new Attempt(start, run.clock().instant(), Attempt.Status.FAILED, e.getMessage()));
          throw e;
        }
        why = e.getMessage();
      }
      Instant lostAt = run.clock().instant();
      run.out().accept(prefix + ": lost: " + why);
      List<String> events = new ArrayList<>();
      Set<String> rebooted = new LinkedHashSet<>();
      try {
        for (String host : run.hosts().lost()) {
          if (bringBack(host, events) != HostState.Return.SAME_BOOT) {
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
        run.out().accept(prefix + ": " + hostsText + " rebooted: setting the cell up again");
        Optional<String> failed = reopen.after(rebooted);
        if (failed.isPresent()) {
          throw new TrialFailure(
              hostsText + " rebooted and the cell could not be set up again: " + failed.get(),
              List.of());
        }
      }
      run.out()
          .accept(
              prefix
                  + ": running the trial again (attempt "
                  + (attempt + 1)
                  + " of "
                  + limit()
                  + ")");
    }
  }

  private int limit() {
    return recovery.retries() + 1;
  }

  /**
   * Reconnects to {@code host} with backoff until it answers or the budget is spent; adds what
   * happened to {@code events}, for the record, and returns how the host came back.
   */
  private HostState.Return bringBack(String host, List<String> events) {
    Duration budget = recovery.reconnect();
    run.out()
        .accept("host " + host + ": reconnecting for up to " + Durations.format(budget) + " …");
    long began = System.nanoTime();
    Backoff backoff = new Backoff(FIRST_PAUSE, LONGEST_PAUSE, budget, run.interrupted());
    String last = "no attempt made";
    while (true) {
      if (run.interrupted().getAsBoolean()) {
        throw new HostLost("interrupted while reconnecting to host " + host);
      }
      try {
        Facts facts = run.hosts().reconnect(host).facts();
        HostState state = run.states().get(host);
        String before = state.bootId();
        String was = state.release();
        HostState.Return r = run.states().back(host, facts);
        String seconds = String.format(Locale.ROOT, "%.1f s", (System.nanoTime() - began) / 1e9);
        String event =
            switch (r) {
              case SAME_BOOT -> "host " + host + " reconnected after " + seconds;
              case NEW_BOOT ->
                  "host " + host + " rebooted (boot id " + before + " -> " + state.bootId() + ")";
              case OTHER_RELEASE ->
                  "host "
                      + host
                      + " rebooted onto "
                      + state.release()
                      + ", not "
                      + was
                      + " (boot id "
                      + before
                      + " -> "
                      + state.bootId()
                      + ")";
            };
        if (r != HostState.Return.SAME_BOOT) {
          event += ", back after " + seconds;
        }
        event += ": its settings are written again";
        run.out().accept(event);
        events.add(event);
        return r;
      } catch (TunelabException e) {
        if (e.exitCode() == TunelabException.BAD_INPUT) {
          throw e; // the inventory itself is wrong: waiting will not fix it
        }
        last = e.getMessage();
      }
      if (!backoff.pause() && !run.interrupted().getAsBoolean()) {
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
    long t = run.trace().start();
    try {
      run.store().recordAttempt(trialId, new Attempt(start, end, Attempt.Status.LOST, error));
      run.trace().phase(Phase.STORE_ATTEMPT, t);
    } catch (TunelabException e) {
      run.out().accept("warning: attempt of trial " + trialId + " not recorded: " + e.getMessage());
    }
  }
}
