package io.tunelab.run;

/**
 * How a run ended.
 *
 * @param overheadMillis mean per trial of wall time minus the workload's own time on the host
 */
public record RunSummary(
    long experimentId, String status, int ok, int failed, int unfinished, double overheadMillis) {}
