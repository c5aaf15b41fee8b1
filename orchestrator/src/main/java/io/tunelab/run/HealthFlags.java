package io.tunelab.run;

import io.tunelab.agent.Health;
import io.tunelab.matrix.Sizes;
import io.tunelab.store.TrialFlag;
import io.tunelab.workload.Transfer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;

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

  /**
   * A {@code cache} flag on each host whose jobs moved bytes in a direction where the block devices
   * of every host together moved less than {@code threshold} of what all the jobs did: a client's
   * read that an NFS or iSCSI server's disks served counts, one its page cache or the server's
   * served does not. No flag when a host did not report its devices' bytes, or rebooted: the sum
   * would be short.
   *
   * @param threshold a fraction of the workload's bytes, 0 never flags
   * @param workload the bytes the jobs on each host say they moved
   */
  static List<TrialFlag> cache(
      double threshold,
      Map<String, Transfer> workload,
      Map<String, Health> before,
      Map<String, Health> after) {
    List<TrialFlag> flags = new ArrayList<>();
    for (String host : before.keySet()) {
      Health b = before.get(host);
      Health a = after.get(host);
      if (a == null
          || !a.bootId().equals(b.bootId())
          || b.diskRead() < 0
          || b.diskWritten() < 0
          || a.diskRead() < 0
          || a.diskWritten() < 0) {
        return flags;
      }
    }
    Map<String, List<String>> details = new LinkedHashMap<>();
    direction(
        "reads", threshold, workload, before, after, Transfer::read, Health::diskRead, details);
    direction(
        "writes",
        threshold,
        workload,
        before,
        after,
        Transfer::written,
        Health::diskWritten,
        details);
    details.forEach(
        (host, lines) -> flags.add(new TrialFlag(host, TrialFlag.CACHE, String.join("; ", lines))));
    return flags;
  }

  /**
   * One direction of {@link #cache}: {@code reads: workload 32 MiB (local), block devices 12 KiB
   * (local 12 KiB), 0.0% of it, under 50%}, added to each host whose jobs moved bytes that way.
   */
  private static void direction(
      String name,
      double threshold,
      Map<String, Transfer> workload,
      Map<String, Health> before,
      Map<String, Health> after,
      ToLongFunction<Transfer> moved,
      ToLongFunction<Health> counter,
      Map<String, List<String>> details) {
    long jobs = workload.values().stream().mapToLong(moved).sum();
    if (jobs <= 0) {
      return;
    }
    long devices = 0;
    List<String> perHost = new ArrayList<>();
    for (String host : before.keySet()) {
      long rose = rise(counter.applyAsLong(before.get(host)), counter.applyAsLong(after.get(host)));
      devices += rose;
      perHost.add(host + " " + Sizes.show(rose));
    }
    if (devices >= threshold * jobs) {
      return;
    }
    List<String> workers =
        workload.entrySet().stream()
            .filter(e -> moved.applyAsLong(e.getValue()) > 0)
            .map(e -> e.getKey() + " " + Sizes.show(moved.applyAsLong(e.getValue())))
            .toList();
    String detail =
        String.format(
            Locale.ROOT,
            "%s: workload %s (%s), block devices %s (%s), %.1f%% of it, under %s%%",
            name,
            Sizes.show(jobs),
            String.join(", ", workers),
            Sizes.show(devices),
            String.join(", ", perHost),
            100.0 * devices / jobs,
            percent(threshold));
    workload.forEach(
        (host, t) -> {
          if (moved.applyAsLong(t) > 0) {
            details.computeIfAbsent(host, h -> new ArrayList<>()).add(detail);
          }
        });
  }

  private static String percent(double fraction) {
    double p = fraction * 100;
    return p == Math.rint(p) ? String.valueOf((long) p) : String.format(Locale.ROOT, "%.1f", p);
  }

  /** How much a counter rose; 0 when either side was not reported. */
  private static long rise(long before, long after) {
    return before < 0 || after < 0 ? 0 : Math.max(0, after - before);
  }

  private static String show(String cpufreq) {
    return cpufreq.isEmpty() ? "none" : cpufreq;
  }
}
