package io.tunelab.view;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tunelab.store.ExperimentProgress;
import io.tunelab.store.ExperimentProgress.CurrentTrial;
import io.tunelab.store.ExperimentProgress.Event;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.TrialCounts;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class StatusTextTest {
  private static final Instant NOW = Instant.parse("2026-11-30T22:28:00Z");

  @Test
  void aRunningExperimentShowsProgressEtaCurrentTrialAndLastEvent() {
    ExperimentProgress p =
        new ExperimentProgress(
            3,
            "quickstart",
            ExperimentStatus.RUNNING,
            new TrialCounts(6, 1, 0, 10, 1),
            60.0,
            "2026-11-30T22:15:00.000Z",
            new CurrentTrial(42, 8, "read_ahead_kb=512", 2, false, "2026-11-30T22:27:20.000Z"),
            new Event("2026-11-30T22:27:19.500Z", "trial", null, "[7/18] bs=1M rep 1: 0.4 s"));

    assertEquals(
        """
        experiment 3 quickstart: running, 7/18 trials done (1 failed)
          elapsed:    13m00s (this run started 2026-11-30T22:15:00.000Z)
          eta:        10m20s, about 2026-11-30T22:38:20Z (mean trial 1m00s × 11 left, less the\
         current one's 40s)
          now:        trial 8/18 read_ahead_kb=512 rep 2, started 2026-11-30T22:27:20.000Z (40s\
         ago)
          last event: 2026-11-30T22:27:19.500Z trial: [7/18] bs=1M rep 1: 0.4 s
        """,
        StatusText.render(p, NOW));
  }

  @Test
  void beforeAnyTrialEndedTheEtaIsUnknown() {
    ExperimentProgress p =
        new ExperimentProgress(
            1,
            "m",
            ExperimentStatus.RUNNING,
            new TrialCounts(0, 0, 0, 4, 0),
            null,
            null,
            null,
            new Event("2026-11-30T22:27:00.000Z", "host", "db1", "restored 2 setting(s)"));

    assertEquals(
        """
        experiment 1 m: running, 0/4 trials done (0 failed)
          eta:        ? (known once a trial has ended)
          now:        no trial running
          last event: 2026-11-30T22:27:00.000Z host db1: restored 2 setting(s)
        """,
        StatusText.render(p, NOW));
  }
}
