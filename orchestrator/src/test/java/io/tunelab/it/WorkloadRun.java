package io.tunelab.it;

import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.MatrixLoader;
import io.tunelab.remote.LocalTransport;
import io.tunelab.run.ExperimentRunner;
import io.tunelab.run.HostConnector;
import io.tunelab.run.RunSummary;
import io.tunelab.store.TrialResult;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.testing.SqliteQuery;
import io.tunelab.trace.PhaseTrace;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A matrix run in-process on this machine's agent (role {@code local}), into a SQLite file, with
 * every trial result the runner handed the store and every line it printed.
 */
record WorkloadRun(RunSummary summary, List<TrialResult> results, List<String> out, Path db) {

  static WorkloadRun of(Path dir, String matrixText) {
    return of(dir, matrixText, host -> new LocalTransport());
  }

  /** The run over {@code connector}'s hosts, e.g. the lab's over SSH. */
  static WorkloadRun of(Path dir, String matrixText, HostConnector connector) {
    return of(dir, matrixText, connector, PhaseTrace.off());
  }

  /** The run over {@code connector}'s hosts with its phases and requests traced. */
  static WorkloadRun of(Path dir, String matrixText, HostConnector connector, PhaseTrace trace) {
    Matrix matrix = MatrixLoader.load("m.yaml", matrixText);
    Path db = dir.resolve("w.db");
    List<String> out = new ArrayList<>();
    try (RecordingStore store = new RecordingStore(JdbcResultStore.open(db));
        trace) {
      ExperimentRunner runner =
          new ExperimentRunner(connector, store, out::add, "test").traced(trace);
      RunSummary summary = runner.run(matrix);
      return new WorkloadRun(summary, List.copyOf(store.results), out, db);
    }
  }

  List<List<String>> rows(String sql) throws SQLException {
    return SqliteQuery.rows(db, sql);
  }

  /** One value of the first trial's samples. */
  double sample(String job, String metric) throws SQLException {
    List<List<String>> rows =
        rows(
            "select value from samples where job = '"
                + job
                + "' and metric = '"
                + metric
                + "' order by trial_id limit 1");
    if (rows.isEmpty()) {
      throw new AssertionError("no sample " + job + " " + metric + "; run printed " + out);
    }
    return Double.parseDouble(rows.get(0).get(0));
  }
}
