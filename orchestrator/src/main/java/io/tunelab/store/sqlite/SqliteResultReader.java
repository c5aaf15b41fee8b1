package io.tunelab.store.sqlite;

import io.tunelab.store.Boot;
import io.tunelab.store.ExperimentProgress;
import io.tunelab.store.ExperimentSummary;
import io.tunelab.store.ReportData;
import io.tunelab.store.ReportSelection;
import io.tunelab.store.ResultReader;
import io.tunelab.store.ResultTable;
import io.tunelab.store.RunConditions;
import io.tunelab.store.SampleSink;
import io.tunelab.store.StoredExperiment;
import io.tunelab.store.TrialCounts;
import io.tunelab.store.TrialRowSink;
import io.tunelab.store.TrialTable;
import io.tunelab.store.sql.Timestamps;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The {@link ResultReader} of an SQLite file: each read in one transaction, a consistent snapshot
 * even while a run writes (WAL lets a reader in beside the writer). What a read-only open returns,
 * and the reading side of {@link SqliteResultStore}.
 */
class SqliteResultReader implements ResultReader {
  final SqliteTransactions tx;
  final SqliteExperiments experiments;
  final SqliteEvents events;
  final SqliteBoots boots;

  SqliteResultReader(SqliteTransactions tx, Timestamps time) {
    this.tx = tx;
    this.boots = new SqliteBoots(tx, time);
    this.experiments = new SqliteExperiments(tx);
    this.events = new SqliteEvents(tx, time);
  }

  /** The connection's transactions, for tests in this package that need to reach SQLite itself. */
  SqliteTransactions transactions() {
    return tx;
  }

  /** The database file, absolute. */
  public Path file() {
    return tx.file();
  }

  @Override
  public String location() {
    return tx.file().toString();
  }

  @Override
  public ResultTable query(String sql) {
    return SqliteQueryRunner.run(tx, sql);
  }

  @Override
  public List<ReportData> reports(long experimentId, ReportSelection selection) {
    return SqliteReportLoader.load(tx, experimentId, selection);
  }

  @Override
  public RunConditions conditions(long experimentId) {
    return SqliteConditions.load(tx, experimentId);
  }

  @Override
  public long exportSamples(long experimentId, List<String> jobs, SampleSink sink) {
    return SqliteSampleCursor.stream(tx, experimentId, jobs, sink);
  }

  @Override
  public void checkExportJobs(long experimentId, TrialTable table, List<String> jobs) {
    tx.transaction(
        "read the jobs of experiment " + experimentId,
        c -> {
          String experiment =
              "experiment " + experimentId + " (" + SqliteCellColumns.name(c, experimentId) + ")";
          if (table == null) {
            SqliteSampleCursor.checkJobs(c, experimentId, experiment, jobs);
          } else {
            SqliteTrialRowCursor.checkJobs(c, experimentId, experiment, table, jobs);
          }
          return null;
        });
  }

  @Override
  public long exportTrialRows(
      long experimentId, TrialTable table, List<String> jobs, TrialRowSink sink) {
    return SqliteTrialRowCursor.stream(tx, experimentId, table, jobs, sink);
  }

  @Override
  public Optional<ExperimentProgress> progress(long experimentId) {
    return events.progress(experimentId);
  }

  @Override
  public Optional<StoredExperiment> findExperiment(String idOrName) {
    return experiments.find(idOrName);
  }

  @Override
  public Optional<StoredExperiment> latest() {
    return experiments.latest();
  }

  @Override
  public List<ExperimentSummary> experiments() {
    return experiments.all();
  }

  @Override
  public List<Boot> boots(long experimentId) {
    return boots.all(experimentId);
  }

  @Override
  public TrialCounts trialCounts(long experimentId) {
    return experiments.trialCounts(experimentId);
  }

  @Override
  public void close() {
    tx.close();
  }
}
