package io.tunelab.agent;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the agent's {@code facts} verb reports about a host.
 *
 * @param values {@code kernel_release}, {@code boot_id}, {@code cmdline}, {@code hostname}, {@code
 *     cpus}, {@code mem_kb}, {@code uid}, {@code journal} ({@code present}/{@code absent}), {@code
 *     state}, and where the host has them {@code cpu_model}, {@code cpufreq_governor} and {@code
 *     kernel_config} ({@code sha256:HEX} or {@code md5:HEX}), in the agent's order
 * @param schedulers block device name to its scheduler line, e.g. {@code [none] mq-deadline}
 * @param models block device name to its {@code device/model} (disks only: a loop device has none)
 * @param vendors block device name to its {@code device/vendor}
 * @param stableNames {@code wwid} and {@code serial}, each a map of block device name to that name
 *     of the disk, where it has one (a SCSI or NVMe WWID, a virtio serial)
 */
public record Facts(
    Map<String, String> values,
    Map<String, String> schedulers,
    Map<String, String> models,
    Map<String, String> vendors,
    Map<String, Map<String, String>> stableNames) {

  public Facts {
    values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    schedulers = Collections.unmodifiableMap(new LinkedHashMap<>(schedulers));
    models = Collections.unmodifiableMap(new LinkedHashMap<>(models));
    vendors = Collections.unmodifiableMap(new LinkedHashMap<>(vendors));
    stableNames = Map.copyOf(stableNames);
  }

  /** Facts of a host whose disks tell no stable name. */
  public Facts(
      Map<String, String> values,
      Map<String, String> schedulers,
      Map<String, String> models,
      Map<String, String> vendors) {
    this(values, schedulers, models, vendors, Map.of());
  }

  /** Facts of a host whose disks tell no model or vendor. */
  public Facts(Map<String, String> values, Map<String, String> schedulers) {
    this(values, schedulers, Map.of(), Map.of());
  }

  /** One fact by its key, or null. */
  public String get(String key) {
    return values.get(key);
  }

  public String kernelRelease() {
    return values.get("kernel_release");
  }

  /** The number of online CPUs as the host reports it. */
  public String cpus() {
    return values.get("cpus");
  }

  /** Total memory in KiB; 0 when the host did not say. */
  public long memKb() {
    String kb = values.getOrDefault("mem_kb", "");
    return kb.matches("[0-9]{1,18}") ? Long.parseLong(kb) : 0;
  }

  /** The agent's user id on the host. */
  public String uid() {
    return values.get("uid");
  }

  /** True when the agent runs as root, as writing sysfs and /proc/sys needs. */
  public boolean root() {
    return "0".equals(uid());
  }

  /** True when a journal of originals is left on the host (a run did not restore). */
  public boolean journalPresent() {
    return "present".equals(values.get("journal"));
  }

  static Facts from(Answer answer) {
    Map<String, String> values = new LinkedHashMap<>();
    Map<String, Map<String, String>> devices =
        Map.of(
            "block", new LinkedHashMap<>(),
            "model", new LinkedHashMap<>(),
            "vendor", new LinkedHashMap<>(),
            "wwid", new LinkedHashMap<>(),
            "serial", new LinkedHashMap<>());
    for (String line : answer.lines()) {
      String[] kv = Answer.fields(line, 2);
      if (devices.containsKey(kv[0]) && kv[1].contains("\t")) {
        String[] dev = Answer.fields(kv[1], 2);
        devices.get(kv[0]).put(dev[0], dev[1]);
      } else {
        values.put(kv[0], kv[1]);
      }
    }
    return new Facts(
        values,
        devices.get("block"),
        devices.get("model"),
        devices.get("vendor"),
        Map.of("wwid", devices.get("wwid"), "serial", devices.get("serial")));
  }
}
