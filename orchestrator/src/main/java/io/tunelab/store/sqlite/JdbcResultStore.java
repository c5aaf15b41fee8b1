package io.tunelab.store.sqlite;

import io.tunelab.Timestamps;
import io.tunelab.TunelabException;
import io.tunelab.plan.Cell;
import io.tunelab.plan.ExperimentPlan;
import io.tunelab.plan.Trial;
import io.tunelab.store.Attempt;
import io.tunelab.store.Boot;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.ExperimentSummary;
import io.tunelab.store.OpenCell;
import io.tunelab.store.ResultReader;
import io.tunelab.store.ResultStore;
import io.tunelab.store.ResultTable;
import io.tunelab.store.SearchState;
import io.tunelab.store.StoredPlan;
import io.tunelab.store.TestbedHost;
import io.tunelab.store.TrialCommit;
import io.tunelab.store.TrialRef;
import io.tunelab.store.TrialValue;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@link ResultStore} of a tunelab database, an SQLite file (WAL mode, foreign keys on) or a
 * PostgreSQL database, written by the same code on both: every method runs in its own transaction
 * ({@link Transactions}), the engines differing only in their SQL words. A trial commit the
 * database refuses (full or failing disk, busy, read-only, a server away past the wait) is kept in
 * a side file ({@link KeptTrials}) until {@code resume} stores it.
 */
public final class JdbcResultStore extends JdbcResultReader implements ResultStore {
  private final SqlitePlanWriter plans;
  private final SqliteTrialWriter trials;
  private final SqliteAttempts attempts;
  private final KeptTrials kept;
  private final Timestamps time;
  private final long scope;
  private boolean reserved;

  private JdbcResultStore(Transactions tx, Timestamps time, String testbed, long scope) {
    super(tx, time);
    this.time = time;
    this.plans = new SqlitePlanWriter(tx, time, testbed);
    this.trials = new SqliteTrialWriter(tx, time);
    this.attempts = new SqliteAttempts(tx);
    this.kept = new KeptTrials(tx.keptTrialsDirectory());
    this.scope = scope;
  }

  /**
   * A store on the database {@code tx} opens (migrated), which it closes with itself; the
   * experiments it creates record {@code testbed} (may be null). With {@code scope} at least 0,
   * {@link #experiments} lists that experiment only: a {@code restore} on a database many testbeds
   * share tears down its own.
   */
  public static JdbcResultStore on(Transactions tx, Clock clock, String testbed, long scope) {
    return new JdbcResultStore(tx, new Timestamps(clock), testbed, scope);
  }

  /** Creates or opens the database and applies pending migrations; exit code 2 if it cannot. */
  public static JdbcResultStore open(Path db) {
    return open(db, Clock.systemUTC());
  }

  /** As {@link #open(Path)}, with the clock that stamps created_at, started_at … */
  public static JdbcResultStore open(Path db, Clock clock) {
    return on(SqliteSchema.openWritable(db, clock), clock, null, -1);
  }

  /**
   * Opens an existing database for reading only (query, report, status). Refuses a missing file,
   * and a file that is not a tunelab database, with exit code 2.
   */
  public static ResultReader openReadOnly(Path db) {
    return JdbcResultReader.on(SqliteSchema.openReadOnly(db));
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
    try (ResultReader store = openReadOnly(db)) {
      return store.query(sql);
    }
  }

  @Override
  public long createExperiment(ExperimentPlan plan, String toolVersion) {
    return plans.createExperiment(plan, toolVersion, null).experimentId();
  }

  /** Writes done in the transaction that stores a plan, once its experiment has its id. */
  public interface AfterPlan {
    void write(Connection c, long experimentId) throws SQLException;
  }

  /**
   * As {@link #createExperiment(ExperimentPlan, String)}, with {@code after} in its transaction.
   */
  public long createExperiment(ExperimentPlan plan, String toolVersion, AfterPlan after) {
    return plans.createExperiment(plan, toolVersion, after).experimentId();
  }

  @Override
  public StoredPlan storePlan(ExperimentPlan plan, String toolVersion) {
    StoredPlan stored = plans.createExperiment(plan, toolVersion, null);
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
  public void recordTestbed(long experimentId, List<TestbedHost> hosts) {
    plans.recordTestbed(experimentId, hosts);
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
   * Commits a trial. When the disk is full or fails (SQLite FULL, IOERR), another process holds the
   * database past the busy budget (BUSY, LOCKED) or it became read-only (READONLY), the whole
   * commit is written to a side file instead ({@code <db>.pending/<experiment>-<trial>.json},
   * synced), which {@link #importKeptTrials} stores on {@code resume}; the error, exit code 3,
   * names that file and the database's error.
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

  @Override
  public double[] statisticsValues(long cellId, String job, String metric) {
    return trials.statisticsValues(cellId, job, metric);
  }

  @Override
  public void recordSearchRound(long experimentId, int round, List<SearchState> states) {
    plans.recordSearchRound(experimentId, round, states);
  }

  @Override
  public List<TrialValue> trialValues(long experimentId, String job, String metric) {
    return trials.trialValues(experimentId, job, metric);
  }

  @Override
  public int skipPendingTrials(long cellId, String reason) {
    return trials.skipPendingTrials(cellId, reason);
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
              + ": "
              + e.remedy()
              + ", then "
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
              + ") and are lost: "
              + e.remedy()
              + ", then "
              + resume
              + " runs the trial again",
          e);
    }
  }

  /** Holds {@link KeptTrials#RESERVE_BYTES} beside the database for side files. */
  @Override
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
  @Override
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

  @Override
  public void recordEvent(long experimentId, String kind, String host, String message) {
    events.record(experimentId, kind, host, message);
  }

  @Override
  public long startBoot(
      long experimentId,
      String host,
      String release,
      String method,
      Boot.Reason reason,
      int round,
      String bootIdBefore) {
    return boots.start(experimentId, host, release, method, reason, round, bootIdBefore);
  }

  @Override
  public void finishBoot(long bootId, Boot.State state, String bootIdAfter, String error) {
    boots.finish(bootId, state, bootIdAfter, error);
  }

  @Override
  public int recordAttempt(long trialId, Attempt attempt) {
    return attempts.record(trialId, attempt);
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
  public List<TrialRef> appendTrials(long experimentId, List<Cell> cells, List<Trial> trials) {
    return plans.appendTrials(experimentId, cells, trials);
  }

  @Override
  public List<TrialRef> unfinishedTrials(long experimentId) {
    return experiments.unfinishedTrials(experimentId);
  }

  @Override
  public List<ExperimentSummary> experiments() {
    List<ExperimentSummary> all = super.experiments();
    return scope < 0 ? all : all.stream().filter(e -> e.id() == scope).toList();
  }

  @Override
  public void close() {
    if (reserved) {
      kept.release();
    }
    super.close();
  }
}
