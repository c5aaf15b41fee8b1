package io.tunelab.store;

/** A stored trial that still has to run. */
public record TrialRef(
    long trialId, long cellId, int cellOrdinal, int rep, int seq, boolean warmup) {}
