package io.tunelab.store;

import java.util.List;

/** Receives the rows of a per-trial table one at a time, as {@link SampleSink} the samples. */
public interface TrialRowSink {
  /**
   * Called once, first: the table's own columns, then the parameter (axis) and knob names every row
   * carries values for.
   */
  void columns(List<String> fields, List<String> params, List<String> knobs);

  /** Called once per row, in cell, repetition, job and process order. */
  void row(TrialRow row);

  /** Called once, last. */
  void end();
}
