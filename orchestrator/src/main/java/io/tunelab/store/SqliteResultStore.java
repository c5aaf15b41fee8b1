package io.tunelab.store;

import io.tunelab.plan.Cell;
import io.tunelab.plan.ExperimentPlan;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@link ResultStore} in an SQLite file (WAL mode, foreign keys on), and what reports, exports
 * and queries read of it. Every method runs in its own transaction; the schema is migrated when the
 * store is opened for writing.
 */
public final class SqliteResultStore implements ResultStore {
  private final SqliteTransactions tx;
  private final SqlitePlanWriter plans;
  private final SqliteTrialWriter trials;
  private final SqliteExperiments experiments;
  private final SqliteAttempts attempts;

  private SqliteResultStore(SqliteTransactions tx, Clock clock) {
    Timestamps time = new Timestamps(clock);
    this.tx = tx;
    this.plans = new SqlitePlanWriter(tx, time);
    this.trials = new SqliteTrialWriter(tx, time);
    this.experiments = new SqliteExperiments(tx);
    this.attempts = new SqliteAttempts(tx);
  }

  /** Creates or opens the database and applies pending migrations; exit code 2 if it cannot. */
  public static SqliteResultStore open(Path db) {
    return open(db, Clock.systemUTC());
  }

  /** As {@link #open(Path)}, with the clock that stamps created_at, started_at … */
  public static SqliteResultStore open(Path db, Clock clock) {
    return new SqliteResultStore(SqliteSchema.openWritable(db, clock), clock);
  }

  /**
   * Opens an existing database for reading only (query, report, status). Refuses a missing file,
   * and a file that is not a tunelab database, with exit code 2.
   */
  public static SqliteResultStore openReadOnly(Path db) {
    return new SqliteResultStore(SqliteSchema.openReadOnly(db), Clock.systemUTC());
  }

  /**
   * Refuses, with exit code 2 and a message naming the path and the reason, a database path that
   * cannot be created or written. The runner calls it before touching any host.
   */
  public static void checkWritable(Path db) {
    SqliteConnections.checkWritable(db);
  }

  /**
   * Opens {@code db} read-only, runs one statement and closes it again: {@code tunelab query} in
   * one call. A missing file, bad SQL, several statements or a write fail with exit code 2.
   */
  public static ResultTable query(Path db, String sql) {
    try (SqliteResultStore store = openReadOnly(db)) {
      return store.query(sql);
    }
  }

  /** The database file, absolute. */
  public Path file() {
    return tx.file();
  }

  /**
   * The rows of one SQL statement of the user's; on a store opened read-only a statement that would
   * change the database fails. Bad SQL or several statements fail with exit code 2.
   */
  public ResultTable query(String sql) {
    return SqliteQueryRunner.run(tx, sql);
  }

  /** The experiment's report data with the defaults; an unknown id fails with exit code 2. */
  public ReportData report(long experimentId) {
    return report(experimentId, ReportSelection.DEFAULT);
  }

  /**
   * The experiment's report data for one job and metric, in a handful of queries whatever its size.
   * An unknown id, job or metric fails with exit code 2 and a message listing what there is.
   */
  public ReportData report(long experimentId, ReportSelection selection) {
    return SqliteReportLoader.load(tx, experimentId, selection);
  }

  /**
   * Streams every sample of the experiment to {@code sink} in one read transaction (a consistent
   * snapshot even while it runs), in memory that grows with its cells, not its samples. Returns how
   * many there were.
   */
  public long exportSamples(long experimentId, SampleSink sink) {
    return SqliteSampleCursor.stream(tx, experimentId, sink);
  }

  @Override
  public long createExperiment(ExperimentPlan plan, String toolVersion) {
    return plans.createExperiment(plan, toolVersion);
  }

  @Override
  public void recordHost(long experimentId, String role, String host, Map<String, String> facts) {
    plans.recordHost(experimentId, role, host, facts);
  }

  @Override
  public void recordVariables(long experimentId, Map<String, String> variables) {
    plans.recordVariables(experimentId, variables);
  }

  @Override
  public void setExperimentStatus(long experimentId, ExperimentStatus status) {
    trials.setExperimentStatus(experimentId, status);
  }

  @Override
  public void startTrial(long trialId) {
    trials.startTrial(trialId);
  }

  @Override
  public void finishTrial(long trialId, TrialResult result) {
    trials.finishTrial(trialId, result);
  }

  @Override
  public int recordAttempt(long trialId, Attempt attempt) {
    return attempts.record(trialId, attempt);
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
  public TrialCounts trialCounts(long experimentId) {
    return experiments.trialCounts(experimentId);
  }

  @Override
  public Map<String, String> variables(long experimentId) {
    return experiments.variables(experimentId);
  }

  @Override
  public List<Cell> cells(long experimentId) {
    return experiments.cells(experimentId);
  }

  @Override
  public List<TrialRef> unfinishedTrials(long experimentId) {
    return experiments.unfinishedTrials(experimentId);
  }

  @Override
  public void close() {
    tx.close();
  }
}
