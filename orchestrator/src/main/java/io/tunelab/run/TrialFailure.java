package io.tunelab.run;

import io.tunelab.store.SettingRow;
import io.tunelab.store.TrialFlag;
import io.tunelab.store.TrialResult;
import io.tunelab.store.TrialStatus;
import java.util.List;

/** A trial that ran but failed; its settings, and what its processes did, are kept. */
final class TrialFailure extends RuntimeException {
  final List<SettingRow> settings;
  final WorkloadPhase.Result workload;
  final List<TrialFlag> flags;

  TrialFailure(String message, List<SettingRow> settings) {
    this(message, settings, null);
  }

  TrialFailure(String message, List<SettingRow> settings, WorkloadPhase.Result workload) {
    this(message, settings, workload, List.of());
  }

  TrialFailure(
      String message,
      List<SettingRow> settings,
      WorkloadPhase.Result workload,
      List<TrialFlag> flags) {
    super(message);
    this.settings = settings;
    this.workload = workload;
    this.flags = List.copyOf(flags);
  }

  /** The trial as the store records it. */
  TrialResult result() {
    return workload == null
        ? new TrialResult(TrialStatus.FAILED, getMessage(), 0, List.of(), settings)
        : new TrialResult(
            TrialStatus.FAILED,
            getMessage(),
            workload.seconds(),
            List.of(),
            settings,
            workload.monitorRows(),
            workload.processes(),
            workload.outputs(),
            flags);
  }
}
