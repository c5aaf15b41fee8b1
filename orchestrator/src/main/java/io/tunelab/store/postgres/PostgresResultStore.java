package io.tunelab.store.postgres;

import io.tunelab.TunelabException;
import io.tunelab.plan.Cell;
import io.tunelab.plan.ExperimentPlan;
import io.tunelab.store.Attempt;
import io.tunelab.store.Boot;
import io.tunelab.store.ExperimentProgress;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.ExperimentSummary;
import io.tunelab.store.ImportedExperiment;
import io.tunelab.store.OpenCell;
import io.tunelab.store.ReportData;
import io.tunelab.store.ReportSelection;
import io.tunelab.store.ResultStore;
import io.tunelab.store.ResultTable;
import io.tunelab.store.RunConditions;
import io.tunelab.store.SampleSink;
import io.tunelab.store.StoredExperiment;
import io.tunelab.store.TrialCommit;
import io.tunelab.store.TrialCounts;
import io.tunelab.store.TrialRef;
import io.tunelab.store.TrialRowSink;
import io.tunelab.store.TrialTable;
import io.tunelab.store.sqlite.SqliteImport;
import io.tunelab.store.sqlite.SqliteResultStore;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@link ResultStore} of a run on a PostgreSQL database. The run works on a local SQLite copy
 * of its one experiment (pulled from the server, ids kept), and every change is pushed to the
 * server behind it ({@link PostgresPush}): a server away for a while costs the run nothing, and the
 * store keeps the SQLite store's meaning to the letter. {@link #experiments} lists the experiment
 * this store works on, not the server's others, so that a {@code restore} on one testbed never
 * tears down another's.
 */
public final class PostgresResultStore implements ResultStore {
  private final PostgresUrl url;
  private final Map<String, String> env;
  private final Clock clock;
  private final PostgresDatabase db;
  private final String testbed;
  private final LocalCopy local;
  private PostgresPush push;
  private long experimentId = -1;

  private PostgresResultStore(
      PostgresUrl url, Map<String, String> env, Clock clock, PostgresDatabase db, String testbed) {
    this.url = url;
    this.env = env;
    this.clock = clock;
    this.db = db;
    this.testbed = testbed;
    this.local = LocalCopy.create(LocalCopy.spoolDirectory(env), clock);
  }

  /**
   * Connects, migrates the schema, and is ready for one experiment; one it creates records {@code
   * testbed} (may be null).
   */
  public static PostgresResultStore open(
      PostgresUrl url, Map<String, String> env, Clock clock, String testbed) {
    PostgresDatabase db = PostgresSchema.openWritable(url, env, clock);
    try {
      return new PostgresResultStore(url, env, clock, db, testbed);
    } catch (RuntimeException e) {
      db.close();
      throw e;
    }
  }

  /**
   * Plans an experiment in an SQLite file of its own and copies it to the server, where it gets its
   * ids; returns that copy, as {@code tunelab import} would.
   */
  static ImportedExperiment plan(
      PostgresDatabase db,
      ExperimentPlan plan,
      String toolVersion,
      Map<String, String> env,
      Clock clock,
      PostgresImport.AfterCopy after) {
    LocalCopy first = LocalCopy.create(LocalCopy.spoolDirectory(env), clock);
    try {
      first.store().createExperiment(plan, toolVersion);
      first.close();
      return SqliteImport.importFile(first.file(), new PostgresImport(db, after)).get(0);
    } finally {
      first.delete();
    }
  }

  /** Works on experiment {@code id} from now on: its local copy pulled, its pushes started. */
  void attach(long id) {
    if (experimentId == id) {
      return;
    }
    if (experimentId >= 0) {
      throw new IllegalStateException(
          "a store on " + url + " works on one experiment, not " + experimentId + " and " + id);
    }
    local.ensure(db, id, true);
    push = new PostgresPush(PostgresDatabase.open(url, env, false), local.file(), id);
    experimentId = id;
  }

  private SqliteResultStore local() {
    return local.store();
  }

  private void changed() {
    if (push == null) {
      throw new IllegalStateException("no experiment of " + url + " is open here");
    }
    push.changed();
  }

  @Override
  public String location() {
    return url.toString();
  }

  @Override
  public long createExperiment(ExperimentPlan plan, String toolVersion) {
    long id =
        plan(
                db,
                plan,
                toolVersion,
                env,
                clock,
                (c, e) ->
                    PostgresQueue.update(
                        c, "UPDATE experiments SET testbed = ? WHERE id = ?", testbed, e.id()))
            .id();
    attach(id);
    return id;
  }

  @Override
  public void recordHost(long experimentId, String role, String host, Map<String, String> facts) {
    local().recordHost(experimentId, role, host, facts);
    changed();
  }

  @Override
  public void recordVariables(long experimentId, Map<String, String> variables) {
    local().recordVariables(experimentId, variables);
    changed();
  }

  @Override
  public void setExperimentStatus(long experimentId, ExperimentStatus status) {
    local().setExperimentStatus(experimentId, status);
    changed();
  }

  @Override
  public Optional<StoredExperiment> findExperiment(String idOrName) {
    if (experimentId >= 0) {
      Optional<StoredExperiment> here = local().findExperiment(idOrName);
      if (here.isPresent()) {
        return here;
      }
    }
    Optional<Long> id = LocalCopy.resolve(db, idOrName);
    if (id.isEmpty()) {
      return Optional.empty();
    }
    attach(id.get());
    return local().findExperiment(Long.toString(id.get()));
  }

  @Override
  public Optional<StoredExperiment> latest() {
    return LocalCopy.latest(db).flatMap(id -> findExperiment(Long.toString(id)));
  }

  @Override
  public List<ExperimentSummary> experiments() {
    return local().experiments();
  }

  @Override
  public List<Cell> cells(long experimentId) {
    return local().cells(experimentId);
  }

  @Override
  public List<TrialRef> unfinishedTrials(long experimentId) {
    return local().unfinishedTrials(experimentId);
  }

  @Override
  public Map<String, String> variables(long experimentId) {
    return local().variables(experimentId);
  }

  @Override
  public void startTrial(long trialId) {
    local().startTrial(trialId);
    changed();
  }

  @Override
  public void commitTrial(TrialCommit commit) {
    try {
      local().commitTrial(commit);
    } finally {
      changed();
    }
  }

  @Override
  public void unstartTrial(long trialId) {
    local().unstartTrial(trialId);
    changed();
  }

  @Override
  public double[] statisticsValues(long cellId, String job, String metric) {
    return local().statisticsValues(cellId, job, metric);
  }

  @Override
  public int skipPendingTrials(long cellId, String reason) {
    int n = local().skipPendingTrials(cellId, reason);
    changed();
    return n;
  }

  @Override
  public int recordAttempt(long trialId, Attempt attempt) {
    int n = local().recordAttempt(trialId, attempt);
    changed();
    return n;
  }

  @Override
  public void recordOpenCell(long experimentId, OpenCell cell) {
    local().recordOpenCell(experimentId, cell);
    changed();
  }

  @Override
  public Optional<OpenCell> openCell(long experimentId) {
    return local().openCell(experimentId);
  }

  @Override
  public void recordEvent(long experimentId, String kind, String host, String message) {
    local().recordEvent(experimentId, kind, host, message);
    changed();
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
    long id = local().startBoot(experimentId, host, release, method, reason, round, bootIdBefore);
    changed();
    return id;
  }

  @Override
  public void finishBoot(long bootId, Boot.State state, String bootIdAfter, String error) {
    local().finishBoot(bootId, state, bootIdAfter, error);
    changed();
  }

  @Override
  public List<Boot> boots(long experimentId) {
    return local().boots(experimentId);
  }

  @Override
  public boolean reserveForKeptTrials() {
    return local().reserveForKeptTrials();
  }

  @Override
  public List<String> importKeptTrials(long experimentId) {
    List<String> lines = local().importKeptTrials(experimentId);
    changed();
    return lines;
  }

  @Override
  public TrialCounts trialCounts(long experimentId) {
    return local().trialCounts(experimentId);
  }

  @Override
  public Optional<ExperimentProgress> progress(long experimentId) {
    return local().progress(experimentId);
  }

  @Override
  public List<ReportData> reports(long experimentId, ReportSelection selection) {
    return local().reports(experimentId, selection);
  }

  @Override
  public RunConditions conditions(long experimentId) {
    return local().conditions(experimentId);
  }

  @Override
  public long exportSamples(long experimentId, List<String> jobs, SampleSink sink) {
    return local().exportSamples(experimentId, jobs, sink);
  }

  @Override
  public long exportTrialRows(
      long experimentId, TrialTable table, List<String> jobs, TrialRowSink sink) {
    return local().exportTrialRows(experimentId, table, jobs, sink);
  }

  @Override
  public void checkExportJobs(long experimentId, TrialTable table, List<String> jobs) {
    local().checkExportJobs(experimentId, table, jobs);
  }

  @Override
  public ResultTable query(String sql) {
    return local().query(sql);
  }

  /**
   * Closes the local copy and waits for the last push. The copy is removed once the server holds
   * everything; otherwise it stays, and the message says where.
   */
  @Override
  public void close() {
    try {
      if (push == null) {
        local.delete();
      } else {
        local.close();
        try {
          push.close();
        } catch (TunelabException e) {
          throw new TunelabException(
              TunelabException.HOST_REFUSED,
              e.getMessage()
                  + "; the run's results are all in "
                  + local.file()
                  + " (an SQLite database: tunelab report --db "
                  + local.file()
                  + ")",
              e);
        }
        local.delete();
      }
    } finally {
      db.close();
    }
  }

  /**
   * The experiments this store's testbed left {@code running} that no worker holds a live lease on:
   * a controller of the testbed died with them.
   */
  public List<Long> leftRunning() {
    return db.transaction(
        "find the experiments testbed " + testbed + " left running",
        c -> {
          List<Long> ids = new ArrayList<>();
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT e.id FROM experiments e LEFT JOIN queue q ON q.experiment_id = e.id"
                      + " WHERE e.status = 'running' AND e.testbed = ? AND (q.state IS NULL"
                      + " OR q.state <> 'claimed' OR q.lease_until < "
                      + PostgresQueue.NOW_MS
                      + ") ORDER BY e.id")) {
            ps.setString(1, testbed);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                ids.add(rs.getLong(1));
              }
            }
          }
          return ids;
        });
  }
}
