package io.tunelab.store;

/** An experiment as {@code tunelab status} lists it; timestamps are ISO-8601 UTC or null. */
public record ExperimentSummary(
    long id,
    String name,
    ExperimentStatus status,
    String createdAt,
    String startedAt,
    String finishedAt,
    int cells,
    TrialCounts trials) {}
