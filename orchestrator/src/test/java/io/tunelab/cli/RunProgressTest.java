package io.tunelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.run.RunListener.TrialEnded;
import io.tunelab.run.RunListener.TrialStarted;
import io.tunelab.store.SettingRow;
import io.tunelab.store.TrialRef;
import io.tunelab.store.TrialStatus;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line's listener: plain lines with ETA, and the log's details. */
class RunProgressTest {
  @TempDir Path dir;

  /** A clock the test moves. */
  private static final class Tick extends Clock {
    Instant now = Instant.parse("2026-11-30T22:15:00Z");

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }

  @Test
  void trialsAndHostEventsReachTheOutputAndTheLog() throws Exception {
    Path db = dir.resolve("t.db");
    Tick clock = new Tick();
    StringWriter out = new StringWriter();
    Path logFile;
    long id = 1;
    try (RunLog log = RunLog.open(db, "m", new PrintWriter(out), clock, false)) {
      logFile = log.file();
      try (RunProgress progress = new RunProgress(log, clock, 80)) {
        progress.runStarted(id, 2);
        TrialStarted first =
            new TrialStarted(1, 2, id, new TrialRef(11, 1, 1, 1, 1, false), "bs=1M");
        progress.trialStarted(first);
        progress.settingsApplied(
            first,
            List.of(
                new SettingRow(
                    "server", "db1", "block.sdb.read_ahead_kb", "/p", "512", "512", "128", true),
                new SettingRow(
                    "client", "c1", "vm.swappiness", "/q", "default", "60", "60", false)));
        clock.now = clock.now.plusSeconds(30);
        TrialEnded firstEnded = new TrialEnded(first, TrialStatus.OK, "0.400 s", 30);
        progress.trialEnded(firstEnded);
        TrialStarted second =
            new TrialStarted(2, 2, id, new TrialRef(12, 1, 1, 2, 2, false), "bs=1M");
        progress.trialStarted(second);
        clock.now = clock.now.plusSeconds(10);
        TrialEnded secondEnded = new TrialEnded(second, TrialStatus.FAILED, "FAILED: exited 3", 10);
        progress.trialEnded(secondEnded);
        progress.hostEvent("db1", "restored 1 setting(s)");
        progress.runEvent("warning: teardown: x");
        progress.warning("event not stored in the database: disk full");
      }

      assertEquals(
          "2026-11-30T22:15:30Z [1/2] bs=1M rep 1: 0.400 s (0 failed, 30s elapsed, eta 30s)\n"
              + "2026-11-30T22:15:40Z [2/2] bs=1M rep 2: FAILED: exited 3"
              + " (1 failed, 40s elapsed, eta 0s)\n"
              + "host db1: restored 1 setting(s)\n"
              + "warning: teardown: x\n",
          out.toString());
      String logText = Files.readString(logFile);
      assertTrue(logText.contains(" trial 11 started: [1/2] bs=1M rep 1\n"), logText);
      assertTrue(
          logText.contains(
              " trial 11 host db1 settings: block.sdb.read_ahead_kb=512 (read back 512,"
                  + " written)\n"),
          logText);
      assertTrue(
          logText.contains(
              " trial 11 host c1 settings: vm.swappiness=default (read back 60, unchanged)\n"),
          logText);
      assertTrue(logText.contains(" trial 12 ended failed\n"), logText);
      assertTrue(
          logText.contains(" warning: event not stored in the database: disk full\n"), logText);
      assertTrue(!out.toString().contains("disk full"), "a warning only the log needs");
    }
  }
}
