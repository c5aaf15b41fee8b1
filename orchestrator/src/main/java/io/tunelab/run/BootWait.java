package io.tunelab.run;

import io.tunelab.Backoff;
import io.tunelab.agent.Facts;
import io.tunelab.inventory.BootSpec;
import io.tunelab.matrix.Durations;
import io.tunelab.store.Boot;
import io.tunelab.store.RunStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Settles the boots a killed controller left open ({@code booting}), before {@code resume}
 * connects: waits for each such host up to its {@code boot_timeout}, power-cycling it once when the
 * inventory says how, and records where it came back.
 */
final class BootWait {
  private static final Duration PAUSE = Duration.ofSeconds(5);

  /** A boot asked for this long ago whose host still runs the boot before it never began. */
  private static final Duration NEVER_BEGAN = Duration.ofMinutes(2);

  private BootWait() {}

  static void finishOpenBoots(
      RunStore store,
      long experimentId,
      Map<String, String> roles,
      HostConnector connector,
      Consumer<String> out) {
    for (Boot b : store.boots(experimentId)) {
      if (b.state() != Boot.State.BOOTING) {
        continue;
      }
      BootSpec spec = connector.boot(b.host());
      out.accept(
          "host "
              + b.host()
              + ": was booting "
              + b.release()
              + " when the run stopped; waiting up to "
              + Durations.format(spec.timeout())
              + " …");
      Facts back = await(b, spec.timeout(), connector);
      if (back == null && spec.powerCycle() != null) {
        out.accept("host " + b.host() + ": power-cycling it: " + spec.powerCycle());
        String failed = PowerCycle.run(spec.powerCycle(), b.host());
        back = failed == null ? await(b, spec.timeout(), connector) : null;
      }
      if (back != null && back.get("boot_id").equals(b.bootIdBefore())) {
        store.finishBoot(
            b.id(),
            Boot.State.FAILED,
            null,
            "the boot never began: the host still runs boot "
                + b.bootIdBefore()
                + " (seen by resume)");
      } else if (back == null) {
        store.finishBoot(
            b.id(),
            Boot.State.FAILED,
            null,
            "not back within " + Durations.format(spec.timeout()) + " (seen by resume)");
      } else if (back.kernelRelease().equals(b.release())) {
        store.finishBoot(b.id(), Boot.State.UP, back.get("boot_id"), null);
        out.accept("host " + b.host() + ": up on " + b.release());
      } else {
        store.finishBoot(
            b.id(),
            Boot.State.FAILED,
            back.get("boot_id"),
            "came back on " + back.kernelRelease() + ", not " + b.release() + " (seen by resume)");
      }
    }
  }

  /**
   * The host's facts once it answers with another boot id than before the boot, or with the same
   * one long after the boot was asked for (it never began); null when {@code timeout} passed.
   */
  private static Facts await(Boot b, Duration timeout, HostConnector connector) {
    String host = b.host();
    BootArrival.Probe probe =
        new BootArrival.Probe() {
          @Override
          public Facts answer() {
            try (Hosts one = Hosts.connect(Map.of(host, host), connector)) {
              return one.session(host).facts();
            }
          }

          @Override
          public void drop() {
            connector.disconnect(host);
          }
        };
    Backoff backoff = new Backoff(PAUSE, PAUSE, timeout.plus(PAUSE), () -> false);
    BootArrival.Seen seen =
        BootArrival.await(
            host,
            b.bootIdBefore(),
            timeout,
            backoff,
            probe,
            () -> b.startedAt().plus(NEVER_BEGAN).isBefore(Instant.now()),
            () -> false);
    connector.disconnect(host);
    return seen.facts();
  }
}
