package io.tunelab.store.postgres;

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
import io.tunelab.store.sqlite.SqliteResultStore;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@code report}, {@code compare}, {@code export}, {@code status} and the HTML report read of
 * a PostgreSQL database: each experiment they ask for is copied, at one point in time, into a
 * temporary SQLite file (a snapshot; only an experiment's row and trials for a listing), and read
 * there by the SQLite store's code, so that both engines print the same for the same rows.
 */
public final class PostgresResultReader implements ResultReader {
  private final PostgresUrl url;
  private final PostgresDatabase db;
  private final LocalCopy snapshot;
  private boolean listed;

  private PostgresResultReader(PostgresUrl url, PostgresDatabase db, LocalCopy snapshot) {
    this.url = url;
    this.db = db;
    this.snapshot = snapshot;
  }

  /** Connects for reading only; the snapshot goes to the temporary directory. */
  public static PostgresResultReader open(PostgresUrl url, Map<String, String> env) {
    PostgresDatabase db = PostgresSchema.openReadOnly(url, env);
    try {
      return new PostgresResultReader(url, db, LocalCopy.temporary(Clock.systemUTC()));
    } catch (RuntimeException e) {
      db.close();
      throw e;
    }
  }

  private SqliteResultStore full(long id) {
    snapshot.ensure(db, id, true);
    return snapshot.store();
  }

  /** Every experiment's row and trials, for the listings. */
  private SqliteResultStore listed() {
    if (!listed) {
      for (long id : LocalCopy.all(db)) {
        snapshot.ensure(db, id, false);
      }
      listed = true;
    }
    return snapshot.store();
  }

  @Override
  public String location() {
    return url.toString();
  }

  @Override
  public Optional<StoredExperiment> findExperiment(String idOrName) {
    return LocalCopy.resolve(db, idOrName)
        .flatMap(id -> full(id).findExperiment(Long.toString(id)));
  }

  @Override
  public Optional<StoredExperiment> latest() {
    return LocalCopy.latest(db).flatMap(id -> full(id).findExperiment(Long.toString(id)));
  }

  @Override
  public List<ExperimentSummary> experiments() {
    return listed().experiments();
  }

  @Override
  public List<Boot> boots(long experimentId) {
    return full(experimentId).boots(experimentId);
  }

  @Override
  public TrialCounts trialCounts(long experimentId) {
    return full(experimentId).trialCounts(experimentId);
  }

  @Override
  public Optional<ExperimentProgress> progress(long experimentId) {
    return full(experimentId).progress(experimentId);
  }

  @Override
  public List<ReportData> reports(long experimentId, ReportSelection selection) {
    return full(experimentId).reports(experimentId, selection);
  }

  @Override
  public RunConditions conditions(long experimentId) {
    return full(experimentId).conditions(experimentId);
  }

  @Override
  public long exportSamples(long experimentId, List<String> jobs, SampleSink sink) {
    return full(experimentId).exportSamples(experimentId, jobs, sink);
  }

  @Override
  public long exportTrialRows(
      long experimentId, TrialTable table, List<String> jobs, TrialRowSink sink) {
    return full(experimentId).exportTrialRows(experimentId, table, jobs, sink);
  }

  @Override
  public void checkExportJobs(long experimentId, TrialTable table, List<String> jobs) {
    full(experimentId).checkExportJobs(experimentId, table, jobs);
  }

  /** A statement of tunelab's own over every experiment's row and trials (status's table). */
  @Override
  public ResultTable query(String sql) {
    return listed().query(sql);
  }

  @Override
  public void close() {
    try {
      snapshot.delete();
    } finally {
      db.close();
    }
  }
}
