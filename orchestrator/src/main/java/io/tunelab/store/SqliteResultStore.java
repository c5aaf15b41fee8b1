package io.tunelab.store;

import io.tunelab.TunelabException;
import io.tunelab.plan.Cell;
import io.tunelab.plan.ExperimentPlan;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
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
  private final SqliteEvents events;
  private final KeptTrials kept;
  private final Timestamps time;
  private boolean reserved;
  private final SqliteAttempts attempts;

  private SqliteResultStore(SqliteTransactions tx, Clock clock) {
    this.time = new Timestamps(clock);
    this.tx = tx;
    this.plans = new SqlitePlanWriter(tx, time);
    this.trials = new SqliteTrialWriter(tx, time);
    this.experiments = new SqliteExperiments(tx);
    this.events = new SqliteEvents(tx, time);
    this.kept = new KeptTrials(tx.file());
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

  /** The connection's transactions, for tests in this package that need to reach SQLite itself. */
  SqliteTransactions transactions() {
    return tx;
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
   * An unknown id, job or metric fails with exit code 2 and a message listing what there is. A
   * selection of several jobs gives the first; see {@link #reports}.
   */
  public ReportData report(long experimentId, ReportSelection selection) {
    return reports(experimentId, selection).get(0);
  }

  /**
   * The experiment's report data for every job of the selection, in the order asked, each with the
   * metrics it shows ({@link ReportData#shown()}); read in one transaction, so that they agree
   * while the experiment runs.
   */
  public List<ReportData> reports(long experimentId, ReportSelection selection) {
    return SqliteReportLoader.load(tx, experimentId, selection);
  }

  /**
   * Streams every sample of the experiment to {@code sink} in one read transaction (a consistent
   * snapshot even while it runs), in memory that grows with its cells, not its samples. Returns how
   * many there were.
   */
  public long exportSamples(long experimentId, SampleSink sink) {
    return exportSamples(experimentId, List.of(), sink);
  }

  /**
   * As {@link #exportSamples(long, SampleSink)}, only the samples of {@code jobs} ({@code writer},
   * {@code writer.0}, {@code vmstat@client}; all when empty). A job the experiment never measured
   * fails with exit code 2 and the list of its jobs.
   */
  public long exportSamples(long experimentId, List<String> jobs, SampleSink sink) {
    return SqliteSampleCursor.stream(tx, experimentId, jobs, sink);
  }

  /**
   * Fails with exit code 2, listing the jobs there are, when one of {@code jobs} names nothing
   * {@link #exportSamples} ({@code table} null) or {@link #exportTrialRows} would find: so that a
   * mistyped name is refused before an output file is created.
   */
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

  /**
   * Streams the experiment's rows of a per-trial table (the processes, or kept tool output
   * decompressed) to {@code sink}, those of {@code jobs} only (names of jobs or of processes; all
   * when empty), in one read transaction. Returns how many there were.
   */
  public long exportTrialRows(
      long experimentId, TrialTable table, List<String> jobs, TrialRowSink sink) {
    return SqliteTrialRowCursor.stream(tx, experimentId, table, jobs, sink);
  }

  @Override
  public long createExperiment(ExperimentPlan plan, String toolVersion) {
    return plans.createExperiment(plan, toolVersion).experimentId();
  }

  @Override
  public StoredPlan storePlan(ExperimentPlan plan, String toolVersion) {
    StoredPlan stored = plans.createExperiment(plan, toolVersion);
    // The writer knows the trials' ids only when SQLite gave them in a row; else they are read.
    return stored.trials() != null
        ? stored
        : new StoredPlan(stored.experimentId(), unfinishedTrials(stored.experimentId()));
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

  /**
   * Commits a trial. When the disk is full or fails (SQLite FULL, IOERR), the whole commit is
   * written to a side file instead ({@code <db>.pending/<experiment>-<trial>.json}, synced), which
   * {@link #importKeptTrials} stores on {@code resume}; the error, exit code 3, names that file and
   * the database's error.
   */
  @Override
  public void commitTrial(TrialCommit commit) {
    try {
      trials.commit(commit);
    } catch (StorageFailure e) {
      throw keep(commit, e);
    }
  }

  @Override
  public void unstartTrial(long trialId) {
    trials.unstartTrial(trialId);
  }

  private TunelabException keep(TrialCommit commit, StorageFailure e) {
    long trialId = commit.trialId();
    long experimentId;
    try {
      experimentId = experiments.experimentOfTrial(trialId);
    } catch (RuntimeException unreadable) {
      e.addSuppressed(unreadable);
      experimentId = -1;
    }
    String resume = experimentId > 0 ? "`tunelab resume " + experimentId + "`" : "`tunelab resume`";
    try {
      Path file =
          kept.keep(KeptTrials.KeptTrial.of(experimentId, time.now(), e.getMessage(), commit));
      return new TunelabException(
          TunelabException.HOST_REFUSED,
          e.getMessage()
              + "; the trial's measurements are kept in "
              + file
              + ": free some space, then "
              + resume
              + " stores them first and goes on",
          e);
    } catch (IOException | RuntimeException sideFile) {
      e.addSuppressed(sideFile);
      return new TunelabException(
          TunelabException.HOST_REFUSED,
          e.getMessage()
              + "; the trial's measurements could not be kept in "
              + kept.dir()
              + " either ("
              + sideFile.getMessage()
              + ") and are lost: free some space, then "
              + resume
              + " runs the trial again",
          e);
    }
  }

  /**
   * Holds a little space beside the database for side files (see {@link #commitTrial}), given back
   * when the store closes. False when the disk has not even that.
   */
  public boolean reserveForKeptTrials() {
    reserved = kept.reserve();
    return reserved;
  }

  /**
   * Stores the trial commits of {@code experimentId} that a full or failing disk left in side
   * files, and deletes each file once its trial is in. A trial the database already has finished is
   * not stored twice, nor are its attempts or event. Returns one line per file, saying what became
   * of it.
   */
  public List<String> importKeptTrials(long experimentId) {
    List<String> done = new ArrayList<>();
    List<Path> files;
    try {
      files = kept.list();
    } catch (IOException e) {
      throw new TunelabException(
          TunelabException.HOST_REFUSED, "cannot list " + kept.dir() + ": " + e.getMessage(), e);
    }
    for (Path file : files) {
      KeptTrials.KeptTrial trial = kept.read(file);
      long owner = experiments.experimentOfTrial(trial.trialId());
      if (owner != experimentId) {
        continue;
      }
      boolean stored = trials.commitIfUnfinished(trial.commit(), trial.keptAt());
      try {
        kept.delete(file);
      } catch (IOException e) {
        throw new TunelabException(
            TunelabException.HOST_REFUSED,
            "trial " + trial.trialId() + " is stored, but " + file + " cannot be deleted: " + e,
            e);
      }
      done.add(
          (stored ? "stored trial " : "trial already stored: ")
              + trial.trialId()
              + " ("
              + trial.result().status()
              + ") from "
              + file
              + ", kept there when the database refused it: "
              + trial.firstError());
    }
    return done;
  }

  /** How far the experiment got, read while it runs; empty for an unknown id. */
  public Optional<ExperimentProgress> progress(long experimentId) {
    return events.progress(experimentId);
  }

  @Override
  public void recordEvent(long experimentId, String kind, String host, String message) {
    events.record(experimentId, kind, host, message);
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
  public void recordOpenCell(long experimentId, OpenCell cell) {
    plans.recordOpenCell(experimentId, cell);
  }

  @Override
  public Optional<OpenCell> openCell(long experimentId) {
    return experiments.openCell(experimentId);
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
    if (reserved) {
      kept.release();
    }
    tx.close();
  }
}
