package io.tunelab.plan;

import io.tunelab.matrix.Kernels;
import java.util.ArrayList;
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
 * @param knobWrites knob values that differ from the trial before, a knob a cell does not set
 *     counting as {@code default} (at the first trial and after a boot, every knob not at {@code
 *     default})
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
      if (fresh || previous.ordinal() != cell.ordinal()) {
        Map<String, String> before = fresh ? Map.of() : previous.knobs();
        for (String knob : changed(before, cell.knobs())) {
          writes++;
          if (freezes.computeIfAbsent(knob, FewestChanges::freezes)) {
            freezing++;
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

  /**
   * The knobs (not kernels) whose value differs between {@code before} and {@code after}; a knob
   * one of them does not set stands at {@code default}.
   */
  private static List<String> changed(Map<String, String> before, Map<String, String> after) {
    List<String> knobs = new ArrayList<>();
    after.forEach(
        (knob, value) -> {
          if (!Objects.equals(value, before.getOrDefault(knob, Kernels.DEFAULT))) {
            knobs.add(knob);
          }
        });
    before.forEach(
        (knob, value) -> {
          if (!after.containsKey(knob) && !value.equals(Kernels.DEFAULT)) {
            knobs.add(knob);
          }
        });
    knobs.removeIf(Kernels::isKey);
    return knobs;
  }
}
