package io.tunelab.run;

import io.tunelab.knob.ApplyLine;
import io.tunelab.knob.ApplyPlanner;
import io.tunelab.knob.Knob;
import io.tunelab.knob.KnobCatalogue;
import java.util.Collection;
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
    this.originals = new HashMap<>(originals);
  }

  String original(String path) {
    return originals.get(path);
  }

  /**
   * Adds the originals of knobs found after preflight (a cell's own knobs, read when the cell is
   * set up); a path known already keeps its first original, read before tunelab wrote it.
   */
  void learn(Map<String, String> found) {
    found.forEach(originals::putIfAbsent);
  }

  /**
   * Trusts nothing about these knobs' devices any more: a cell's teardown may remove a device and
   * the next cell find a fresh one under the same name.
   */
  void forget(Collection<Knob> knobs) {
    for (Knob k : knobs) {
      current.remove(k.path());
      KnobCatalogue.relatedPaths(k).forEach(current::remove);
      int queue = k.path().indexOf("/queue/");
      if (k.device() != null && queue > 0) {
        String dir = k.path().substring(0, queue + "/queue/".length());
        current.keySet().removeIf(p -> p.startsWith(dir));
      }
    }
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

  /**
   * Starts over on a kernel the run booted: every knob's original is what that kernel boots with,
   * and the next apply writes every knob.
   */
  void booted(Map<String, String> fresh) {
    originals.clear();
    originals.putAll(fresh);
    forget();
  }

  /** Records what the host read back after an apply; after a failed write, trusts nothing. */
  void applied(List<ApplyLine> lines, Map<String, String> effective, boolean failed) {
    journaled = true;
    current = failed ? new HashMap<>() : ApplyPlanner.afterApply(current, lines, effective);
  }
}
