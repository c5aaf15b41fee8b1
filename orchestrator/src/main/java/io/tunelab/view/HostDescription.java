package io.tunelab.view;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What {@code tunelab hosts facts} tells about one host: what a user asks before writing a matrix
 * for it. Values are as the kernel shows them; null where a file is missing.
 *
 * @param cpuModel {@code /proc/cpuinfo}'s {@code model name} (or the arch's equivalent)
 * @param cpufreqGovernor cpu0's {@code scaling_governor}; null without cpufreq
 * @param kernelConfig the hash of {@code /boot/config-RELEASE}, {@code sha256:HEX} or {@code
 *     md5:HEX}
 * @param vm the vm dirty settings by knob name ({@code vm.dirty_ratio} …)
 */
public record HostDescription(
    String host,
    String kernelRelease,
    String bootId,
    String cmdline,
    String hostname,
    String cpus,
    long memKb,
    String cpuModel,
    String cpufreqGovernor,
    String kernelConfig,
    List<Device> devices,
    Map<String, String> vm) {

  /** The vm settings shown, in the order the kernel's documentation gives them. */
  public static final List<String> VM =
      List.of(
          "dirty_ratio",
          "dirty_background_ratio",
          "dirty_bytes",
          "dirty_background_bytes",
          "dirty_expire_centisecs",
          "dirty_writeback_centisecs");

  /** The queue files shown per block device. */
  public static final List<String> QUEUE =
      List.of("rotational", "read_ahead_kb", "max_sectors_kb", "max_hw_sectors_kb");

  /**
   * One block device.
   *
   * @param sectors its size in 512-byte sectors, or -1 when unknown
   * @param schedulerLine the scheduler file as the kernel shows it, the current one in brackets
   * @param queue {@link #QUEUE} file name to value (null when missing)
   * @param model its {@code device/model}, null when it has none (a loop device)
   * @param vendor its {@code device/vendor}, null when it has none
   */
  public record Device(
      String name,
      long sectors,
      String schedulerLine,
      Map<String, String> queue,
      String model,
      String vendor) {
    /** The schedulers the device offers, without brackets. */
    public List<String> schedulers() {
      List<String> names = new ArrayList<>();
      for (String s : schedulerLine.trim().split("\\s+")) {
        if (!s.isEmpty()) {
          names.add(s.replaceAll("[\\[\\]]", ""));
        }
      }
      return names;
    }

    /** The scheduler in use (in brackets), or null when the device offers none. */
    public String current() {
      for (String s : schedulerLine.trim().split("\\s+")) {
        if (s.startsWith("[") && s.endsWith("]")) {
          return s.substring(1, s.length() - 1);
        }
      }
      return null;
    }
  }
}
