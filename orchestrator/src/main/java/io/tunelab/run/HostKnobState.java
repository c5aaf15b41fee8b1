package io.tunelab.run;

import io.tunelab.knob.ApplyLine;
import io.tunelab.knob.ApplyPlanner;
import io.tunelab.knob.Knob;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the controller knows of one host's knobs: their originals and the values it believes
 * current, so that between cells only changed knobs are written.
 */
final class HostKnobState {
  private final Map<String, String> originals;
  private Map<String, String> current = new HashMap<>();
  private boolean journaled;

  HostKnobState(Map<String, String> originals) {
    this.originals = Map.copyOf(originals);
  }

  String original(String path) {
    return originals.get(path);
  }

  /** The payload of this trial's apply request. */
  List<ApplyLine> plan(Map<Knob, String> requested) {
    return ApplyPlanner.plan(requested, originals, current, !journaled);
  }

  /**
   * Trusts nothing the host was believed to hold, and journals again: after a lost connection (a
   * new agent may have been started over a journal restored by the dead-man switch) or a reboot
   * (which reset every knob and cleared the journal), the next apply writes every knob.
   */
  void forget() {
    journaled = false;
    current = new HashMap<>();
  }

  /** Records what the host read back after an apply; after a failed write, trusts nothing. */
  void applied(List<ApplyLine> lines, Map<String, String> effective, boolean failed) {
    journaled = true;
    current = failed ? new HashMap<>() : ApplyPlanner.afterApply(current, lines, effective);
  }
}
