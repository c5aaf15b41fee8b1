package io.tunelab.store;

import java.util.Map;

/**
 * A stored experiment.
 *
 * @param overrides the {@code --set NAME=VALUE} it was run with, to load {@code matrixYaml} with
 */
public record StoredExperiment(
    long id,
    String name,
    ExperimentStatus status,
    String matrixYaml,
    String matrixPath,
    String order,
    long seed,
    int repeat,
    int warmup,
    Map<String, String> overrides) {

  /** An experiment run without overrides. */
  public StoredExperiment(
      long id,
      String name,
      ExperimentStatus status,
      String matrixYaml,
      String matrixPath,
      String order,
      long seed,
      int repeat,
      int warmup) {
    this(id, name, status, matrixYaml, matrixPath, order, seed, repeat, warmup, Map.of());
  }
}
