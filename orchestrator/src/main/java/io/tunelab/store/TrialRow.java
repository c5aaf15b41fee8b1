package io.tunelab.store;

import java.util.List;

/**
 * One row of a per-trial table ({@link TrialTable}) as {@code tunelab export} writes it: its trial,
 * its cell with every parameter and knob value, and its own values in the table's column order,
 * each a {@code Long}, {@code Double}, {@code String}, {@code Boolean} or null.
 */
public record TrialRow(
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
    List<Object> values,
    List<String> params,
    List<String> knobs) {}
