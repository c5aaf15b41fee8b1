package io.tunelab.store;

import io.tunelab.workload.Sample;
import java.util.List;

/**
 * What a trial produced. {@code status} is {@code ok}, {@code failed} or {@code skipped}.
 *
 * @param monitorRows every interval row of every monitor (table {@code monitor_samples})
 * @param processes how each workload process ran: host, effective scheduling, exit
 * @param outputs raw tool output kept for later questions (fio's JSON), stored compressed
 */
public record TrialResult(
    TrialStatus status,
    String error,
    double workloadSeconds,
    List<Sample> samples,
    List<SettingRow> settings,
    List<MonitorSample> monitorRows,
    List<ProcessRecord> processes,
    List<TrialOutput> outputs) {

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
