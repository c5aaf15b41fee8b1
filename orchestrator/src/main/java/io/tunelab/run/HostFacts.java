package io.tunelab.run;

import io.tunelab.TunelabException;
import io.tunelab.agent.AgentResponse;
import io.tunelab.agent.AgentSession;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads every host's facts and refuses hosts where the agent cannot write knobs. */
final class HostFacts {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private HostFacts() {}

  /** Host to facts ({@code kernel_release}, {@code boot_id}, {@code cpus}, {@code mem_kb}, …). */
  static Map<String, Map<String, String>> gather(Hosts hosts) {
    Map<String, Map<String, String>> facts = hosts.parallel(HostFacts::read);
    facts.forEach(
        (host, map) -> {
          if (!"0".equals(map.get("uid"))) {
            throw new TunelabException(
                TunelabException.HOST_REFUSED,
                "host "
                    + host
                    + ": tunelab must run as root to write sysfs and /proc/sys"
                    + " (the agent runs as uid "
                    + map.get("uid")
                    + "); run it as root");
          }
        });
    return facts;
  }

  /** One host's facts, as the agent's {@code facts} verb reports them. */
  static Map<String, String> read(AgentSession session) {
    AgentResponse response = session.require("facts", List.of(), TIMEOUT);
    Map<String, String> map = new LinkedHashMap<>();
    for (String line : response.lines()) {
      String[] kv = line.split("\t", 2);
      String value = kv.length > 1 ? kv[1] : "";
      if (kv[0].equals("block") && value.contains("\t")) {
        // one fact per device, so SQL can ask which schedulers a disk offered
        String[] dev = value.split("\t", 2);
        map.put("block." + dev[0] + ".scheduler", dev[1]);
      } else {
        map.put(kv[0], value);
      }
    }
    return map;
  }
}
