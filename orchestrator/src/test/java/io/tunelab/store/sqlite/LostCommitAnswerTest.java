package io.tunelab.store.sqlite;

import static io.tunelab.store.Fixtures.cell;
import static io.tunelab.store.Fixtures.experiment;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tunelab.plan.Trial;
import io.tunelab.store.Attempt;
import io.tunelab.store.Boot;
import io.tunelab.store.Fixtures;
import io.tunelab.store.ResultTable;
import io.tunelab.store.TrialCommit;
import io.tunelab.store.TrialRef;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transaction whose COMMIT reached the database but whose answer was lost runs again whole (a
 * PostgreSQL server restarted or a connection cut at that moment): the second try stores nothing
 * twice. Here every write transaction is run twice, each try committed.
 */
class LostCommitAnswerTest {
  private static final Instant T0 = Instant.parse("2024-05-01T12:00:00Z");

  @TempDir Path dir;

  @Test
  void eventsBootsAttemptsAndSamplesAreStoredOnceWhenEveryCommitRunsTwice() throws Exception {
    Path db = dir.resolve("t.db");
    long id;
    long trial;
    try (JdbcResultStore plain = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      id =
          plain.createExperiment(
              experiment("lossy", 1, 0, List.of(cell(1, "bs", "1M"))), Fixtures.TOOL_VERSION);
      trial = plain.unfinishedTrials(id).get(0).trialId();
    }
    try (JdbcResultStore store =
        JdbcResultStore.on(
            new EveryCommitTwice(
                (SqliteTransactions) JdbcResultStore.open(db, Fixtures.CLOCK).transactions()),
            Fixtures.CLOCK,
            null,
            -1)) {
      store.recordEvent(id, "message", null, "started");
      long boot =
          store.startBoot(id, "client", "6.1.0-50-amd64", "kexec", Boot.Reason.KERNEL, 1, "a");
      store.finishBoot(boot, Boot.State.UP, "b", null);
      assertEquals(1, store.recordAttempt(trial, new Attempt(T0, T0, Attempt.Status.LOST, "gone")));
      store.startTrial(trial);
      store.commitTrial(
          new TrialCommit(
              trial,
              Fixtures.timed(2.0),
              List.of(new Attempt(T0.plusSeconds(5), T0.plusSeconds(7), Attempt.Status.OK, null)),
              "trial 1 ended ok",
              OptionalLong.empty()));
      assertEquals(List.of(boot), store.boots(id).stream().map(Boot::id).toList());
      List<TrialRef> added =
          store.appendTrials(
              id,
              List.of(cell(1, "bs", "1M"), cell(2, "bs", "4M")),
              List.of(new Trial(2, 1, 0, false), new Trial(1, 2, 0, false)));
      assertEquals(List.of(2, 3), added.stream().map(TrialRef::seq).toList());
      assertEquals(
          List.of(List.of(2L), List.of(3L)),
          Fixtures.rows(db, "select count(*) from cells union all select count(*) from trials"));
    }
    assertEquals(
        List.of(List.of(1L, 1L, 2L, 1L, 1L)),
        Fixtures.rows(
            db,
            "SELECT (SELECT count(*) FROM events WHERE kind = 'message'),"
                + " (SELECT count(*) FROM events WHERE kind = 'trial'),"
                + " (SELECT count(*) FROM trial_attempts),"
                + " (SELECT count(*) FROM boots),"
                + " (SELECT count(*) FROM samples WHERE job = 'all' AND metric = 'seconds')"));
  }

  /** Runs each transaction twice, committing both: the first try's answer was lost. */
  private static final class EveryCommitTwice extends Transactions {
    private final SqliteTransactions db;

    EveryCommitTwice(SqliteTransactions db) {
      super(db.dialect());
      this.db = db;
    }

    @Override
    public String location() {
      return db.location();
    }

    @Override
    public Path keptTrialsDirectory() {
      return db.keptTrialsDirectory();
    }

    @Override
    public <T> T transaction(String what, Work<T> work) {
      db.transaction(what, work);
      return db.transaction(what, work);
    }

    @Override
    public ResultTable query(String sql) {
      return db.query(sql);
    }

    @Override
    public void closeQuietly() {
      db.closeQuietly();
    }

    @Override
    public void close() {
      db.close();
    }
  }
}
