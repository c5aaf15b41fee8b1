package io.tunelab.run;

import io.tunelab.agent.Facts;
import io.tunelab.store.RunStore;
import io.tunelab.store.TrialHost;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every host of a run, each in its {@link HostState}: the one owner of the hosts' facts, boots and
 * knob states. A host found on a new boot is recorded in the store here, whatever found it.
 */
final class HostStates {
  private final Map<String, HostState> states = new LinkedHashMap<>();
  private final Map<String, String> roles;
  private final Map<String, Map<String, String>> extras;
  private final RunStore store;
  private final long experimentId;

  /**
   * @param facts every host's facts as the run found them
   * @param originals each host's knobs' originals, from preflight
   * @param extras what is recorded beside each host's facts (its noise checks), kept on every new
   *     boot's record
   */
  HostStates(
      Map<String, Facts> facts,
      Map<String, Map<String, String>> originals,
      Map<String, String> roles,
      Map<String, Map<String, String>> extras,
      RunStore store,
      long experimentId) {
    facts.forEach(
        (host, f) ->
            states.put(host, new HostState(host, f, originals.getOrDefault(host, Map.of()))));
    this.roles = roles;
    this.extras = extras;
    this.store = store;
    this.experimentId = experimentId;
  }

  HostState get(String host) {
    return states.get(host);
  }

  /** Each host's knob state, for the parts that write knobs. */
  Map<String, HostKnobState> knobs() {
    Map<String, HostKnobState> knobs = new LinkedHashMap<>();
    states.forEach((host, s) -> knobs.put(host, s.knobs()));
    return Collections.unmodifiableMap(knobs);
  }

  /** The host answers again after its session was lost; a new boot is recorded. */
  HostState.Return back(String host, Facts fresh) {
    HostState.Return r = states.get(host).back(fresh);
    if (r != HostState.Return.SAME_BOOT) {
      record(host);
    }
    return r;
  }

  /** The run booted {@code host} into round {@code round} of the release it now runs. */
  void booted(String host, Facts fresh, int round) {
    states.get(host).booted(fresh, round);
    record(host);
  }

  /** What each host runs now, for a trial's record. */
  List<TrialHost> ran() {
    List<TrialHost> ran = new ArrayList<>();
    states.forEach(
        (host, s) ->
            ran.add(
                new TrialHost(
                    host,
                    String.valueOf(s.release()),
                    String.valueOf(s.bootId()),
                    s.facts().get("cmdline") == null ? "" : s.facts().get("cmdline"))));
    return ran;
  }

  private void record(String host) {
    Map<String, String> recorded = HostFacts.recorded(states.get(host).facts());
    recorded.putAll(extras.getOrDefault(host, Map.of()));
    roles.forEach(
        (role, h) -> {
          if (h.equals(host)) {
            store.recordHost(experimentId, role, host, recorded);
          }
        });
  }
}
