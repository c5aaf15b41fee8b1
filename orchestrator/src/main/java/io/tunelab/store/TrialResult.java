package io.tunelab.store;

import io.tunelab.workload.Sample;
import java.util.List;

/**
 * What a trial produced. {@code status} is {@code ok}, {@code failed} or {@code skipped}.
 *
 * @param monitorRows every interval row of every monitor (table {@code monitor_samples})
 * @param processes how each workload process ran: host, effective scheduling, exit
 * @param outputs raw tool output kept for later questions (fio's JSON), stored compressed
 * @param flags what the hosts' health checks found during the trial (table {@code trial_flags})
 */
public record TrialResult(
    TrialStatus status,
    String error,
    double workloadSeconds,
    List<Sample> samples,
    List<SettingRow> settings,
    List<MonitorSample> monitorRows,
    List<ProcessRecord> processes,
    List<TrialOutput> outputs,
    List<TrialFlag> flags) {

  /** A result without health flags. */
  public TrialResult(
      TrialStatus status,
      String error,
      double workloadSeconds,
      List<Sample> samples,
      List<SettingRow> settings,
      List<MonitorSample> monitorRows,
      List<ProcessRecord> processes,
      List<TrialOutput> outputs) {
    this(
        status,
        error,
        workloadSeconds,
        samples,
        settings,
        monitorRows,
        processes,
        outputs,
        List.of());
  }

  /** This result with {@code found} as its health flags. */
  public TrialResult withFlags(List<TrialFlag> found) {
    return new TrialResult(
        status, error, workloadSeconds, samples, settings, monitorRows, processes, outputs, found);
  }

  /** A result without monitors, process records or kept output. */
  public TrialResult(
      TrialStatus status,
      String error,
      double workloadSeconds,
      List<Sample> samples,
      List<SettingRow> settings) {
    this(status, error, workloadSeconds, samples, settings, List.of(), List.of(), List.of());
  }
}
