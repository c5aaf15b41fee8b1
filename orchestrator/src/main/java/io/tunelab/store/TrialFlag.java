package io.tunelab.store;

import java.util.List;

/**
 * A health flag of one trial on one host (table {@code trial_flags}): something happened during the
 * trial that makes its numbers suspect.
 *
 * @param flag one of {@link #NAMES}
 * @param detail what was seen, for people: the kernel's first lines, the knob and its two values,
 *     the counters' rise
 */
public record TrialFlag(String host, String flag, String detail) {
  /** The kernel logged lines of level warning or worse. */
  public static final String DMESG = "dmesg";

  /** A knob read after the trial differs from what was applied. */
  public static final String KNOB_DRIFT = "knob_drift";

  /** Pages were swapped in or out. */
  public static final String SWAP = "swap";

  /** A CPU's thermal throttle counters rose. */
  public static final String THROTTLE = "throttle";

  /** A CPU's frequency governor or limits changed. */
  public static final String CPUFREQ = "cpufreq";

  /** The host's boot id changed. */
  public static final String REBOOT = "reboot";

  /** The block devices moved far fewer bytes than the workload did: the page cache served it. */
  public static final String CACHE = "cache";

  /** Every flag, in the order reports list them. */
  public static final List<String> NAMES =
      List.of(DMESG, KNOB_DRIFT, SWAP, THROTTLE, CPUFREQ, REBOOT, CACHE);
}
