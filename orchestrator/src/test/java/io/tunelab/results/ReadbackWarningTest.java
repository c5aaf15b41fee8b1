package io.tunelab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.Fixtures;
import io.tunelab.store.SettingRow;
import io.tunelab.store.TrialCommit;
import io.tunelab.store.TrialRef;
import io.tunelab.store.TrialResult;
import io.tunelab.store.TrialStatus;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.testing.Cli;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A knob that read back other than it was written — here read_ahead_kb written 1024 and read 2560,
 * as when a second name for the same file wrote it too — is a warning in every report, naming the
 * knob, host, role and both values; a rounding the kernel is known to do (max_sectors_kb to a whole
 * unit) and a knob set back to its default are not.
 */
class ReadbackWarningTest {
  @TempDir Path dir;

  @Test
  void theReportSaysWhichKnobTheKernelHeldOtherThanAsked() throws Exception {
    Path db = dir.resolve("t.db");
    try (JdbcResultStore store = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      long id =
          store.createExperiment(
              Fixtures.experiment("readback", 3, 0, List.of(Fixtures.cell(1, "bs", "64M"))),
              Fixtures.TOOL_VERSION);
      store.setExperimentStatus(id, ExperimentStatus.RUNNING);
      for (TrialRef t : store.unfinishedTrials(id)) {
        TrialResult dd = Fixtures.gib64(16.0 + t.rep() / 10.0);
        List<SettingRow> settings =
            List.of(
                Fixtures.readAhead("1024", "2560"),
                new SettingRow(
                    "server",
                    "srv1",
                    "block.sdb.max_sectors_kb",
                    "/sys/block/sdb/queue/max_sectors_kb",
                    "1000",
                    "992",
                    "1280",
                    true),
                new SettingRow(
                    "server",
                    "srv1",
                    "vm.dirty_ratio",
                    "/proc/sys/vm/dirty_ratio",
                    "default",
                    "20",
                    "20",
                    false));
        store.startTrial(t.trialId());
        store.commitTrial(
            TrialCommit.of(
                t.trialId(),
                new TrialResult(
                    TrialStatus.OK, null, dd.workloadSeconds(), dd.samples(), settings)));
      }
      store.setExperimentStatus(id, ExperimentStatus.FINISHED);
    }
    for (String format : List.of("text", "md")) {
      Cli.Result r = Cli.tunelab("report", "--db", db.toString(), "--format", format);
      assertEquals(0, r.code(), r.all());
      assertTrue(
          r.out()
              .contains(
                  "knob block.sdb.read_ahead_kb on srv1 (server) read back 2560 after 1024 was"
                      + " written, in 3 ok trial(s): they measured the value read back"),
          r.out());
      assertFalse(r.out().contains("max_sectors_kb on srv1"), r.out());
      assertFalse(r.out().contains("dirty_ratio on srv1"), r.out());
    }
  }
}
