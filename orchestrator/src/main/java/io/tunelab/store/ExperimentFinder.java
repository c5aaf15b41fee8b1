package io.tunelab.store;

import io.tunelab.TunelabException;

/**
 * Finds the experiment a command names: by id, by name (the latest of that name), or the latest.
 */
public final class ExperimentFinder {
  private ExperimentFinder() {}

  /**
   * The experiment {@code idOrName} names, or the latest one when it is null; none fails with exit
   * code 2 and a message naming the database.
   */
  public static StoredExperiment find(ResultReader store, String idOrName) {
    return (idOrName == null ? store.latest() : store.findExperiment(idOrName))
        .orElseThrow(
            () ->
                new TunelabException(
                    TunelabException.BAD_INPUT,
                    idOrName == null
                        ? "no experiment in " + store.location()
                        : "no experiment '"
                            + idOrName
                            + "' in "
                            + store.location()
                            + " (tunelab status lists them)"));
  }
}
