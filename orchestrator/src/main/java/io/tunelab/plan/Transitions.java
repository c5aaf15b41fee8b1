package io.tunelab.plan;

import io.tunelab.matrix.Kernels;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the transitions between the trials of a plan cost, counted from the cells and the trial
 * order: how often the cell steps run, how many knob values are written (those that freeze a
 * request queue apart), how many kernels are booted.
 *
 * @param cellSetups runs of {@code cell_setup}: at the first trial, whenever a value the cell steps
 *     use changes, and after every boot (0 without cell steps)
 * @param knobWrites knob values that differ from the trial before (at the first trial and after a
 *     boot, every knob not at {@code default})
 * @param freezingWrites those of {@code knobWrites} that freeze a request queue
 * @param boots boots of the hosts the plan boots, from the release the first trial asks for and
 *     back to it at the end
 */
public record Transitions(long cellSetups, long knobWrites, long freezingWrites, long boots) {

  /** The transitions of {@code trials} in their order. */
  public static Transitions of(
      List<Cell> cells, List<Trial> trials, CellStepValues steps, BootPlan bootPlan) {
    long setups = 0;
    long writes = 0;
    long freezing = 0;
    long boots = 0;
    Map<String, Boolean> freezes = new HashMap<>();
    Cell previous = null;
    Map<String, BootPlan.Want> wants = null;
    Map<String, BootPlan.Want> start = null;
    for (Trial t : trials) {
      Cell cell = cells.get(t.cellOrdinal() - 1);
      boolean booted = false;
      if (!bootPlan.none()) {
        Map<String, BootPlan.Want> now = bootPlan.wants(cell, t.rep());
        if (wants == null) {
          start = now;
        } else {
          for (Map.Entry<String, BootPlan.Want> w : now.entrySet()) {
            if (!w.getValue().equals(wants.get(w.getKey()))) {
              boots++;
              booted = true;
            }
          }
        }
        wants = now;
      }
      boolean fresh = previous == null || booted;
      if (!steps.none() && (fresh || !steps.same(previous, cell))) {
        setups++;
      }
      if (previous != cell || fresh) {
        for (Map.Entry<String, String> k : cell.knobs().entrySet()) {
          String knob = k.getKey();
          if (Kernels.isKey(knob)) {
            continue;
          }
          boolean written =
              fresh
                  ? !k.getValue().equals(Kernels.DEFAULT)
                  : !Objects.equals(k.getValue(), previous.knobs().get(knob));
          if (written) {
            writes++;
            if (freezes.computeIfAbsent(knob, FewestChanges::freezes)) {
              freezing++;
            }
          }
        }
      }
      previous = cell;
    }
    if (wants != null) {
      for (Map.Entry<String, BootPlan.Want> w : wants.entrySet()) {
        if (!w.getValue().release().equals(start.get(w.getKey()).release())) {
          boots++;
        }
      }
    }
    return new Transitions(setups, writes, freezing, boots);
  }
}
