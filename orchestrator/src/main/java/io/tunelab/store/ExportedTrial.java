package io.tunelab.store;

import java.util.List;

/**
 * A trial and its cell as every exported row starts: the experiment, the cell with every parameter
 * and knob value (in the order of the sink's columns; null where a cell has none), the trial.
 */
public record ExportedTrial(
    long experimentId,
    String experiment,
    long cellId,
    int ordinal,
    String label,
    long trialId,
    int rep,
    int seq,
    boolean warmup,
    TrialStatus status,
    String startedAt,
    List<String> params,
    List<String> knobs) {}
