package io.tunelab.run;

import io.tunelab.agent.Health;
import io.tunelab.store.TrialFlag;
import java.util.ArrayList;
import java.util.List;

/** The health flags of one host's trial, from its snapshots before and after the workload. */
final class HealthFlags {
  private HealthFlags() {}

  /**
   * What changed on {@code host} between {@code before} and {@code after}; after a reboot only
   * that, since every counter started again.
   */
  static List<TrialFlag> of(String host, Health before, Health after) {
    List<TrialFlag> flags = new ArrayList<>();
    if (!before.bootId().equals(after.bootId())) {
      flags.add(
          new TrialFlag(
              host, TrialFlag.REBOOT, "boot id " + before.bootId() + " -> " + after.bootId()));
      return flags;
    }
    if (after.kernelLines() > 0) {
      StringBuilder detail = new StringBuilder(String.join("\n", after.firstLines()));
      int more = after.kernelLines() - after.firstLines().size();
      if (more > 0) {
        detail.append(detail.length() == 0 ? "" : "\n").append("… and ").append(more);
        detail.append(more == 1 ? " more line" : " more lines");
      }
      flags.add(new TrialFlag(host, TrialFlag.DMESG, detail.toString()));
    }
    long in = rise(before.pswpin(), after.pswpin());
    long out = rise(before.pswpout(), after.pswpout());
    if (in > 0 || out > 0) {
      flags.add(new TrialFlag(host, TrialFlag.SWAP, "pswpin +" + in + ", pswpout +" + out));
    }
    long throttled = rise(before.throttle(), after.throttle());
    if (throttled > 0) {
      flags.add(new TrialFlag(host, TrialFlag.THROTTLE, "thermal throttle counters +" + throttled));
    }
    if (!before.cpufreq().equals(after.cpufreq())) {
      flags.add(
          new TrialFlag(
              host,
              TrialFlag.CPUFREQ,
              "before: " + show(before.cpufreq()) + "; after: " + show(after.cpufreq())));
    }
    return flags;
  }

  /**
   * A {@code knob_drift} flag when the value of {@code knob} read after the trial differs from the
   * one read when it was applied; null when they agree.
   */
  static TrialFlag drift(String host, String knob, String applied, String after) {
    if (applied == null || applied.equals(after)) {
      return null;
    }
    return new TrialFlag(
        host,
        TrialFlag.KNOB_DRIFT,
        knob
            + " applied "
            + applied
            + ", read "
            + (after == null ? "nothing (gone)" : after)
            + " after the trial");
  }

  /** How much a counter rose; 0 when either side was not reported. */
  private static long rise(long before, long after) {
    return before < 0 || after < 0 ? 0 : Math.max(0, after - before);
  }

  private static String show(String cpufreq) {
    return cpufreq.isEmpty() ? "none" : cpufreq;
  }
}
