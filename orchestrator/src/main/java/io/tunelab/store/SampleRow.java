package io.tunelab.store;

import java.util.List;

/**
 * One sample as {@code tunelab export} writes it: the sample, its trial, its cell with every
 * parameter and knob value (in the order of {@link SampleSink#columns}; null where a cell has
 * none).
 */
public record SampleRow(
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
    String job,
    String metric,
    Double value,
    String unit,
    List<String> params,
    List<String> knobs) {}
