package io.tunelab.run;

import io.tunelab.Backoff;
import io.tunelab.TunelabException;
import io.tunelab.agent.Facts;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits for a host that was asked to boot (by the run, or by a controller that died since): tries
 * it with backoff until it answers on another boot id than before, or {@code boot_timeout} passed.
 * What it answered last tells a host that is down (power-cycle it) from one that never went down
 * (it still runs the boot before: a power cycle would only cut a running machine).
 */
final class BootArrival {
  private BootArrival() {}

  /** One try to reach the host. */
  interface Probe {
    /**
     * The host's facts from a new agent.
     *
     * @throws TunelabException when the host cannot be reached
     */
    Facts answer();

    /** Drops what the try opened, so the next try makes a new connection. */
    void drop();
  }

  /**
   * What the host answered at the last try.
   *
   * @param facts its facts, or null when the last try found no host
   * @param newBoot whether they are of another boot than the one before
   */
  record Seen(Facts facts, boolean newBoot) {
    /** The host answered, still on the boot before. */
    boolean neverWentDown() {
      return facts != null && !newBoot;
    }
  }

  /**
   * Tries the host after each pause of {@code backoff} until it answers on another boot id than
   * {@code before}, {@code settled} says an answer on the old one is final, or {@code timeout}
   * passed; the deadline is looked at after each try, so a try at the end still counts.
   *
   * @throws HostLost when {@code interrupted}
   * @throws TunelabException when the inventory itself is wrong: waiting will not fix it
   */
  static Seen await(
      String host,
      String before,
      Duration timeout,
      Backoff backoff,
      Probe probe,
      BooleanSupplier settled,
      BooleanSupplier interrupted) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      backoff.pause();
      if (interrupted.getAsBoolean()) {
        throw new HostLost("interrupted while host " + host + " boots");
      }
      Seen seen = new Seen(null, false);
      try {
        Facts f = probe.answer();
        seen = new Seen(f, !before.equals(f.get("boot_id")));
        if (seen.newBoot() || settled.getAsBoolean()) {
          return seen;
        }
      } catch (TunelabException e) {
        if (e.exitCode() == TunelabException.BAD_INPUT) {
          throw e;
        }
      }
      boolean last = System.nanoTime() > deadline;
      if (!last || seen.facts() == null) {
        probe.drop();
      }
      if (last) {
        return seen; // a host still on the boot before keeps its new session
      }
    }
  }
}
