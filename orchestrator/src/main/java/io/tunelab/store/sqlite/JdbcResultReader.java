package io.tunelab.store.sqlite;

import io.tunelab.Timestamps;
import io.tunelab.store.Boot;
import io.tunelab.store.CellSettings;
import io.tunelab.store.ExperimentProgress;
import io.tunelab.store.ExperimentSummary;
import io.tunelab.store.ReportData;
import io.tunelab.store.ReportSelection;
import io.tunelab.store.ResultReader;
import io.tunelab.store.ResultTable;
import io.tunelab.store.RunConditions;
import io.tunelab.store.SampleSink;
import io.tunelab.store.SearchRecord;
import io.tunelab.store.StoredExperiment;
import io.tunelab.store.StoredFile;
import io.tunelab.store.TrialCounts;
import io.tunelab.store.TrialRowSink;
import io.tunelab.store.TrialTable;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The {@link ResultReader} of a tunelab database on either engine: each read in one transaction, a
 * consistent snapshot even while a run writes (an SQLite file in WAL mode lets a reader in beside
 * the writer). What a read-only open returns, and the reading side of {@link JdbcResultStore}.
 */
public class JdbcResultReader implements ResultReader {
  final Transactions tx;
  final SqliteExperiments experiments;
  final SqliteEvents events;
  final SqliteBoots boots;

  JdbcResultReader(Transactions tx, Timestamps time) {
    this.tx = tx;
    this.boots = new SqliteBoots(tx, time);
    this.experiments = new SqliteExperiments(tx);
    this.events = new SqliteEvents(tx, time);
  }

  /** A reader of the database {@code tx} opens, which it closes with itself. */
  public static JdbcResultReader on(Transactions tx) {
    return new JdbcResultReader(tx, new Timestamps(Clock.systemUTC()));
  }

  /** The connection's transactions, for tests that need to reach the database itself. */
  Transactions transactions() {
    return tx;
  }

  @Override
  public String location() {
    return tx.location();
  }

  @Override
  public ResultTable query(String sql) {
    return tx.query(sql);
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
  public OptionalInt searchWinner(long experimentId) {
    return SqliteCellSettings.winner(tx, experimentId);
  }

  @Override
  public SearchRecord search(long experimentId, String job, String metric) {
    return SqliteSearchRecord.load(tx, experimentId, job, metric);
  }

  @Override
  public Optional<CellSettings> cellSettings(long experimentId, int ordinal) {
    return SqliteCellSettings.load(tx, experimentId, ordinal);
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
  public List<StoredFile> files(long experimentId) {
    return experiments.files(experimentId);
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
