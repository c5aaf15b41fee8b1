package io.tunelab.run;

import io.tunelab.TunelabException;
import io.tunelab.agent.AgentSession;
import io.tunelab.agent.Facts;
import java.util.LinkedHashMap;
import java.util.Map;

/** Reads every host's facts and refuses hosts where the agent cannot write knobs. */
final class HostFacts {
  private HostFacts() {}

  /** Host to its facts; throws when an agent does not run as root. */
  static Map<String, Facts> gather(Hosts hosts) {
    Map<String, Facts> facts = hosts.parallel(AgentSession::facts);
    facts.forEach(
        (host, f) -> {
          if (!f.root()) {
            throw new TunelabException(
                TunelabException.HOST_REFUSED,
                "host "
                    + host
                    + ": tunelab must run as root to write sysfs and /proc/sys"
                    + " (the agent runs as uid "
                    + f.uid()
                    + "); run it as root");
          }
        });
    return facts;
  }

  /**
   * The facts as the store records them: {@code kernel_release}, {@code boot_id}, {@code cpus},
   * {@code mem_kb}, …, and one {@code block.DEV.scheduler} per device, so SQL can ask which
   * schedulers a disk offered, with {@code block.DEV.model}, {@code block.DEV.vendor}, {@code
   * block.DEV.wwid} and {@code block.DEV.serial} where the disk tells them.
   */
  static Map<String, String> recorded(Facts facts) {
    Map<String, String> map = new LinkedHashMap<>(facts.values());
    facts.schedulers().forEach((dev, line) -> map.put("block." + dev + ".scheduler", line));
    facts.models().forEach((dev, model) -> map.put("block." + dev + ".model", model));
    facts.vendors().forEach((dev, vendor) -> map.put("block." + dev + ".vendor", vendor));
    facts
        .stableNames()
        .forEach(
            (kind, names) -> names.forEach((dev, n) -> map.put("block." + dev + "." + kind, n)));
    return map;
  }
}
