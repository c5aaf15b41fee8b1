package io.tunelab.store;

import java.util.List;

/** Receives an experiment's samples one at a time, so that any number fits in constant memory. */
public interface SampleSink {
  /** Called once, first: the parameter (axis) and knob names every row carries values for. */
  void columns(List<String> params, List<String> knobs);

  /** Called once per sample, in cell, repetition, job and metric order. */
  void sample(SampleRow row);

  /** Called once, last. */
  void end();
}
