package io.tunelab.store.sqlite;

import static io.tunelab.store.Fixtures.cell;
import static io.tunelab.store.Fixtures.experiment;
import static io.tunelab.store.Fixtures.gib64;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.store.Attempt;
import io.tunelab.store.ExperimentProgress;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.Fixtures;
import io.tunelab.store.ResultReader;
import io.tunelab.store.TrialCommit;
import io.tunelab.store.TrialRef;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@code status} reads of a run that another store (another process) is writing. */
class RunProgressStoreTest {
  private static final Instant T0 = Instant.parse("2024-05-01T12:00:00Z");

  @TempDir Path dir;

  /** A clock the test moves, so that trial durations are known. */
  private static final class Tick extends Clock {
    final AtomicReference<Instant> now =
        new AtomicReference<>(Instant.parse("2024-05-01T12:00:00Z"));

    @Override
    public Instant instant() {
      return now.get();
    }

    void add(long seconds) {
      now.updateAndGet(i -> i.plusSeconds(seconds));
    }

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }

  @Test
  void aReaderSeesProgressCurrentTrialAndLastEventOfARunningExperiment() throws Exception {
    Path db = dir.resolve("t.db");
    Tick clock = new Tick();
    try (JdbcResultStore writer = JdbcResultStore.open(db, clock)) {
      long id =
          writer.createExperiment(
              experiment("live", 2, 0, List.of(cell(1, "bs", "1M"), cell(2, "bs", "4M"))),
              Fixtures.TOOL_VERSION);
      writer.setExperimentStatus(id, ExperimentStatus.RUNNING);
      writer.recordEvent(id, "start", null, "run started: 4 trial(s) to run");
      List<TrialRef> trials = writer.unfinishedTrials(id);

      try (ResultReader reader = JdbcResultStore.openReadOnly(db)) {
        ExperimentProgress before = reader.progress(id).orElseThrow();
        assertEquals(4, before.trials().pending());
        assertNull(before.meanTrialSeconds());
        assertNull(before.current());
        assertEquals("2024-05-01T12:00:00.000Z", before.runStartedAt());
        assertEquals("run started: 4 trial(s) to run", before.lastEvent().message());
      }

      for (int i = 0; i < 2; i++) {
        writer.startTrial(trials.get(i).trialId());
        clock.add(10 + 20 * i);
        writer.commitTrial(TrialCommit.of(trials.get(i).trialId(), gib64(16)));
        writer.recordEvent(id, "trial", null, "[" + (i + 1) + "/4] ended");
      }
      writer.startTrial(trials.get(2).trialId());
      writer.recordEvent(id, "host", "srv1", "reconnected");

      // A second store on the same file, as `tunelab status` in another process opens it.
      try (ResultReader reader = JdbcResultStore.openReadOnly(db)) {
        ExperimentProgress p = reader.progress(id).orElseThrow();
        assertEquals(2, p.trials().ok());
        assertEquals(1, p.trials().running());
        assertEquals(1, p.trials().pending());
        assertEquals(20.0, p.meanTrialSeconds(), 0.01);
        assertEquals(3, p.current().seq());
        assertEquals("bs=4M", p.current().cellLabel());
        assertEquals(1, p.current().rep());
        assertEquals("2024-05-01T12:00:40.000Z", p.current().startedAt());
        assertEquals(
            new ExperimentProgress.Event("2024-05-01T12:00:40.000Z", "host", "srv1", "reconnected"),
            p.lastEvent());
        assertTrue(reader.progress(id + 1).isEmpty());
      }
    }
  }

  @Test
  void theNextTrialStartsAndTheEventAndAttemptAreKeptInTheCommitOfATrialsOutcome()
      throws Exception {
    Path db = dir.resolve("t.db");
    Tick clock = new Tick();
    try (JdbcResultStore writer = JdbcResultStore.open(db, clock)) {
      long id =
          writer.createExperiment(
              experiment("ride", 3, 0, List.of(cell(1, "bs", "1M"))), Fixtures.TOOL_VERSION);
      writer.setExperimentStatus(id, ExperimentStatus.RUNNING);
      List<TrialRef> trials = writer.unfinishedTrials(id);
      writer.startTrial(trials.get(0).trialId());
      clock.add(10);
      writer.commitTrial(
          new TrialCommit(
                  trials.get(0).trialId(),
                  gib64(16),
                  List.of(new Attempt(T0, T0.plusSeconds(10), Attempt.Status.OK, null)),
                  "[1/3] ended",
                  OptionalLong.empty())
              .startingNext(trials.get(1).trialId()));

      try (ResultReader reader = JdbcResultStore.openReadOnly(db)) {
        ExperimentProgress p = reader.progress(id).orElseThrow();
        assertEquals(1, p.trials().ok());
        assertEquals(1, p.trials().running());
        assertEquals(2, p.current().seq());
        assertEquals("2024-05-01T12:00:10.000Z", p.current().startedAt());
        assertEquals(
            new ExperimentProgress.Event("2024-05-01T12:00:10.000Z", "trial", null, "[1/3] ended"),
            p.lastEvent());
        assertEquals(
            List.of(List.of(1L, "ok", "2024-05-01T12:00:00.000Z", "2024-05-01T12:00:10.000Z")),
            reader
                .query("SELECT attempt, status, started_at, finished_at FROM trial_attempts")
                .rows());
      }

      // The run stopped before the started trial ran: it is pending again, as it was.
      writer.unstartTrial(trials.get(1).trialId());
      try (ResultReader reader = JdbcResultStore.openReadOnly(db)) {
        ExperimentProgress p = reader.progress(id).orElseThrow();
        assertEquals(0, p.trials().running());
        assertEquals(2, p.trials().pending());
        assertNull(p.current());
      }
    }
  }

  @Test
  void aCommitThatFailsLeavesNoAttemptAndNoEventBehind() throws Exception {
    Path db = dir.resolve("t.db");
    try (JdbcResultStore writer = JdbcResultStore.open(db, new Tick())) {
      long id =
          writer.createExperiment(
              experiment("fails", 1, 0, List.of(cell(1, "bs", "1M"))), Fixtures.TOOL_VERSION);
      long trial = writer.unfinishedTrials(id).get(0).trialId();
      writer.startTrial(trial);
      TrialCommit commit =
          new TrialCommit(
                  trial,
                  gib64(16),
                  List.of(new Attempt(T0, T0.plusSeconds(1), Attempt.Status.OK, null)),
                  "[1/1] ended",
                  OptionalLong.empty())
              .startingNext(trial + 100); // no such trial: the last write of the commit fails

      assertThrows(IllegalArgumentException.class, () -> writer.commitTrial(commit));

      ExperimentProgress p = writer.progress(id).orElseThrow();
      assertEquals(1, p.trials().running());
      assertEquals(0, p.trials().ok());
      assertNull(p.lastEvent());
      assertEquals(List.of(List.of(0L)), writer.query("SELECT count(*) FROM samples").rows());
      assertEquals(
          List.of(List.of(0L)), writer.query("SELECT count(*) FROM trial_attempts").rows());
      // The same commit without the bad start goes in whole.
      writer.commitTrial(
          new TrialCommit(
              trial, commit.result(), commit.attempts(), commit.event(), OptionalLong.empty()));
      assertEquals(
          List.of(List.of(1L)), writer.query("SELECT count(*) FROM trial_attempts").rows());
      assertEquals("[1/1] ended", writer.progress(id).orElseThrow().lastEvent().message());
    }
  }

  @Test
  void aDatabaseWithoutTheEventsTableStillShowsProgress() throws Exception {
    Path db = dir.resolve("t.db");
    long id;
    try (JdbcResultStore writer = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      id =
          writer.createExperiment(
              experiment("old", 1, 0, List.of(cell(1, "bs", "1M"))), Fixtures.TOOL_VERSION);
      writer
          .transactions()
          .transaction("drop", c -> c.createStatement().execute("DROP TABLE events"));
    }
    try (ResultReader reader = JdbcResultStore.openReadOnly(db)) {
      ExperimentProgress p = reader.progress(id).orElseThrow();
      assertEquals(1, p.trials().pending());
      assertNull(p.lastEvent());
      assertNull(p.runStartedAt());
    }
  }
}
