package io.tunelab.run;

import io.tunelab.TunelabException;
import io.tunelab.matrix.JobFiles;
import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.MatrixLoader;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.ExperimentSummary;
import io.tunelab.store.RunStore;
import io.tunelab.store.StoredExperiment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Finishes what a killed controller left behind in the database: an experiment still marked {@code
 * running} gets the {@code cell_teardown} of the cell it had set up (with what that cell's steps
 * captured) and its teardown (with the variables its setup captured, e.g. the loop device), and is
 * marked {@code interrupted}, ready for {@code resume}.
 *
 * <p>Starting the agents is the guard: while a live controller holds a host's agent lock,
 * connecting fails and nothing is torn down under a running experiment.
 */
public final class InterruptedTeardown {
  private InterruptedTeardown() {}

  /**
   * Tears down every experiment marked running; {@code connectors} gives the connector for a matrix
   * (its inventory), {@code jobFiles} the job files of a stored experiment. Returns how many
   * experiments could not be cleaned.
   */
  public static int run(
      RunStore store,
      Function<Matrix, HostConnector> connectors,
      Function<StoredExperiment, JobFiles> jobFiles,
      Consumer<String> out) {
    int failed = 0;
    for (ExperimentSummary e : store.experiments()) {
      if (e.status() != ExperimentStatus.RUNNING) {
        continue;
      }
      StoredExperiment stored = store.findExperiment(Long.toString(e.id())).orElseThrow();
      Matrix matrix =
          MatrixLoader.load(
              stored.matrixPath(), stored.matrixYaml(), jobFiles.apply(stored), stored.overrides());
      Map<String, String> vars = new LinkedHashMap<>(store.variables(e.id()));
      String which = "experiment " + e.id() + " (" + e.name() + ")";
      List<String> problems;
      try (Hosts hosts = Hosts.connect(matrix.roles(), connectors.apply(matrix))) {
        problems = new ArrayList<>(CellSteps.tearDownLeftover(store, e.id(), hosts, matrix, vars));
        problems.addAll(Steps.teardown(hosts, matrix.teardown(), vars));
      } catch (TunelabException ex) {
        problems = List.of(ex.getMessage());
      }
      if (problems.isEmpty()) {
        store.setExperimentStatus(e.id(), ExperimentStatus.INTERRUPTED);
        out.accept(
            which
                + ": teardown done, marked interrupted; `tunelab resume "
                + e.id()
                + "` runs its unfinished trials");
      } else {
        failed++;
        out.accept(which + ": teardown not done: " + String.join("; ", problems));
      }
    }
    return failed;
  }
}
