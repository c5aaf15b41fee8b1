package io.tunelab.cli;

import io.tunelab.store.ExperimentFinder;
import io.tunelab.store.ResultReader;
import io.tunelab.store.StoredExperiment;
import picocli.CommandLine.Parameters;

/** {@code [EXPERIMENT]}: an experiment by id or name, the latest when left out. */
final class ExperimentArgument {
  @Parameters(
      paramLabel = "EXPERIMENT",
      arity = "0..1",
      description = "Experiment id or name (default: the latest).")
  String experiment;

  /** The experiment named, or the latest; none fails with exit code 2. */
  StoredExperiment find(ResultReader store) {
    return ExperimentFinder.find(store, experiment);
  }
}
