package io.tunelab.it;

import io.tunelab.plan.Cell;
import io.tunelab.plan.ExperimentPlan;
import io.tunelab.store.Attempt;
import io.tunelab.store.Boot;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.ExperimentSummary;
import io.tunelab.store.OpenCell;
import io.tunelab.store.RunStore;
import io.tunelab.store.StoredExperiment;
import io.tunelab.store.TestbedHost;
import io.tunelab.store.TrialCommit;
import io.tunelab.store.TrialRef;
import io.tunelab.store.TrialResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A result store that remembers every trial result it is handed before passing it on: the tests see
 * the process records, monitor rows and kept output whether or not the store writes them.
 */
final class RecordingStore implements RunStore {
  private final RunStore store;
  final List<TrialResult> results = new ArrayList<>();

  RecordingStore(RunStore store) {
    this.store = store;
  }

  @Override
  public void commitTrial(TrialCommit commit) {
    results.add(commit.result());
    store.commitTrial(commit);
  }

  @Override
  public void unstartTrial(long trialId) {
    store.unstartTrial(trialId);
  }

  @Override
  public double[] statisticsValues(long cellId, String job, String metric) {
    return store.statisticsValues(cellId, job, metric);
  }

  @Override
  public int skipPendingTrials(long cellId, String reason) {
    return store.skipPendingTrials(cellId, reason);
  }

  @Override
  public long createExperiment(ExperimentPlan plan, String toolVersion) {
    return store.createExperiment(plan, toolVersion);
  }

  @Override
  public void recordHost(long experimentId, String role, String host, Map<String, String> facts) {
    store.recordHost(experimentId, role, host, facts);
  }

  @Override
  public void recordTestbed(long experimentId, List<TestbedHost> hosts) {
    store.recordTestbed(experimentId, hosts);
  }

  @Override
  public void recordVariables(long experimentId, Map<String, String> variables) {
    store.recordVariables(experimentId, variables);
  }

  @Override
  public void setExperimentStatus(long experimentId, ExperimentStatus status) {
    store.setExperimentStatus(experimentId, status);
  }

  @Override
  public Optional<StoredExperiment> findExperiment(String idOrName) {
    return store.findExperiment(idOrName);
  }

  @Override
  public List<Cell> cells(long experimentId) {
    return store.cells(experimentId);
  }

  @Override
  public void recordSearchRound(
      long experimentId, int round, List<io.tunelab.store.SearchState> states) {
    store.recordSearchRound(experimentId, round, states);
  }

  @Override
  public List<TrialRef> appendTrials(
      long experimentId, List<Cell> cells, List<io.tunelab.plan.Trial> trials) {
    return store.appendTrials(experimentId, cells, trials);
  }

  @Override
  public List<io.tunelab.store.TrialValue> trialValues(
      long experimentId, String job, String metric) {
    return store.trialValues(experimentId, job, metric);
  }

  @Override
  public List<TrialRef> unfinishedTrials(long experimentId) {
    return store.unfinishedTrials(experimentId);
  }

  @Override
  public void startTrial(long trialId) {
    store.startTrial(trialId);
  }

  @Override
  public Map<String, String> variables(long experimentId) {
    return store.variables(experimentId);
  }

  @Override
  public int recordAttempt(long trialId, Attempt attempt) {
    return store.recordAttempt(trialId, attempt);
  }

  @Override
  public List<ExperimentSummary> experiments() {
    return store.experiments();
  }

  @Override
  public void recordOpenCell(long experimentId, OpenCell cell) {
    store.recordOpenCell(experimentId, cell);
  }

  @Override
  public Optional<OpenCell> openCell(long experimentId) {
    return store.openCell(experimentId);
  }

  @Override
  public void recordEvent(long experimentId, String kind, String host, String message) {
    store.recordEvent(experimentId, kind, host, message);
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
    return store.startBoot(experimentId, host, release, method, reason, round, bootIdBefore);
  }

  @Override
  public void finishBoot(long bootId, Boot.State state, String bootIdAfter, String error) {
    store.finishBoot(bootId, state, bootIdAfter, error);
  }

  @Override
  public List<Boot> boots(long experimentId) {
    return store.boots(experimentId);
  }

  @Override
  public boolean reserveForKeptTrials() {
    return store.reserveForKeptTrials();
  }

  @Override
  public List<String> importKeptTrials(long experimentId) {
    return store.importKeptTrials(experimentId);
  }

  @Override
  public String location() {
    return store.location();
  }

  @Override
  public void close() {
    store.close();
  }
}
