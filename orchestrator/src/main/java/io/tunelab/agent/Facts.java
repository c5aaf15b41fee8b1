package io.tunelab.agent;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the agent's {@code facts} verb reports about a host.
 *
 * @param values {@code kernel_release}, {@code boot_id}, {@code hostname}, {@code cpus}, {@code
 *     mem_kb}, {@code uid}, {@code journal} ({@code present}/{@code absent}), {@code state}, in the
 *     agent's order
 * @param schedulers block device name to its scheduler line, e.g. {@code [none] mq-deadline}
 */
public record Facts(Map<String, String> values, Map<String, String> schedulers) {

  public Facts {
    values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    schedulers = Collections.unmodifiableMap(new LinkedHashMap<>(schedulers));
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
    Map<String, String> schedulers = new LinkedHashMap<>();
    for (String line : answer.lines()) {
      String[] kv = Answer.fields(line, 2);
      if (kv[0].equals("block") && kv[1].contains("\t")) {
        String[] dev = Answer.fields(kv[1], 2);
        schedulers.put(dev[0], dev[1]);
      } else {
        values.put(kv[0], kv[1]);
      }
    }
    return new Facts(values, schedulers);
  }
}
