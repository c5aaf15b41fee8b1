package io.tunelab.store;

/** A stored experiment. */
public record StoredExperiment(
    long id,
    String name,
    ExperimentStatus status,
    String matrixYaml,
    String matrixPath,
    String order,
    long seed,
    int repeat,
    int warmup) {}
