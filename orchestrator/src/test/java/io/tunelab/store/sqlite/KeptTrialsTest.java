package io.tunelab.store.sqlite;

import static io.tunelab.store.Fixtures.cell;
import static io.tunelab.store.Fixtures.experiment;
import static io.tunelab.store.Fixtures.readAhead;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.TunelabException;
import io.tunelab.store.Attempt;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.Fixtures;
import io.tunelab.store.TrialCommit;
import io.tunelab.store.TrialFlag;
import io.tunelab.store.TrialRef;
import io.tunelab.store.TrialResult;
import io.tunelab.store.TrialStatus;
import io.tunelab.workload.Sample;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A trial the database refuses (full disk) is kept in a side file and stored once on resume. */
class KeptTrialsTest {
  private static final Instant T0 = Instant.parse("2024-05-01T12:00:00Z");

  @TempDir Path dir;

  /** A trial with enough samples that storing it needs new database pages. */
  private static TrialResult measured() {
    List<Sample> samples = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      samples.add(new Sample("dd." + i, "seconds", 1.5 + i, "s"));
    }
    samples.add(new Sample("all", "mib_per_s", Double.NaN, "MiB/s"));
    return new TrialResult(TrialStatus.OK, null, 2.5, samples, List.of(readAhead("512", "512")));
  }

  /** Lets the store's own connection grow the file no further: SQLite then answers FULL. */
  private static void fill(JdbcResultStore store) {
    store
        .transactions()
        .transaction(
            "fill",
            c -> {
              try (Statement st = c.createStatement();
                  ResultSet rs = st.executeQuery("PRAGMA page_count")) {
                rs.next();
                st.execute("PRAGMA max_page_count = " + rs.getLong(1));
              }
              return null;
            });
  }

  private static long count(JdbcResultStore store, String sql) {
    return store
        .transactions()
        .transaction(
            "count",
            c -> {
              try (Statement st = c.createStatement();
                  ResultSet rs = st.executeQuery(sql)) {
                rs.next();
                return rs.getLong(1);
              }
            });
  }

  @Test
  void aTrialAFullDiskRefusesIsKeptAsideThenStoredExactlyOnceOnResume() throws Exception {
    Path db = dir.resolve("t.db");
    Path pending = dir.resolve("t.db.pending");
    long id;
    long trialId;
    try (JdbcResultStore store = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      id =
          store.createExperiment(
              experiment("full", 2, 0, List.of(cell(1, "bs", "1M"))), Fixtures.TOOL_VERSION);
      store.setExperimentStatus(id, ExperimentStatus.RUNNING);
      assertTrue(store.reserveForKeptTrials());
      assertTrue(Files.size(pending.resolve(".reserve")) >= KeptTrials.RESERVE_BYTES);
      List<TrialRef> trials = store.unfinishedTrials(id);
      trialId = trials.get(0).trialId();
      store.startTrial(trialId);
      fill(store);
      TrialCommit commit =
          new TrialCommit(
                  trialId,
                  measured()
                      .withFlags(List.of(new TrialFlag("local", TrialFlag.DMESG, "hung task"))),
                  List.of(new Attempt(T0, T0.plusSeconds(3), Attempt.Status.OK, null)),
                  "[1/2] bs=1M rep 1: 2.500 s",
                  OptionalLong.empty())
              .startingNext(trials.get(1).trialId());

      TunelabException e = assertThrows(TunelabException.class, () -> store.commitTrial(commit));

      Path side = pending.resolve(id + "-" + trialId + ".json");
      assertEquals(TunelabException.HOST_REFUSED, e.exitCode(), e.getMessage());
      assertTrue(e.getMessage().contains("database or disk is full"), e.getMessage());
      assertTrue(e.getMessage().contains(side.toString()), e.getMessage());
      assertTrue(e.getMessage().contains("tunelab resume " + id), e.getMessage());
      assertTrue(Files.exists(side));
      assertFalse(Files.exists(pending.resolve(".reserve")), "the reserve made room for it");
      assertEquals(0, count(store, "SELECT count(*) FROM samples"));
      assertEquals(0, count(store, "SELECT count(*) FROM trial_attempts"));
      assertEquals(0, count(store, "SELECT count(*) FROM events"));
      assertEquals(1, count(store, "SELECT count(*) FROM trials WHERE status = 'running'"));
    }
    assertTrue(Files.exists(pending), "closing the store keeps a folder with a kept trial");

    try (JdbcResultStore store = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      assertEquals(List.of(), store.importKeptTrials(id + 1), "another experiment's files stay");
      List<String> lines = store.importKeptTrials(id);

      assertEquals(1, lines.size());
      assertTrue(lines.get(0).startsWith("stored trial " + trialId + " (ok)"), lines.get(0));
      assertFalse(Files.exists(pending), "the side file and its folder are gone");
      assertEquals(501, count(store, "SELECT count(*) FROM samples WHERE trial_id = " + trialId));
      assertEquals(1, count(store, "SELECT count(*) FROM settings WHERE trial_id = " + trialId));
      assertEquals(
          1,
          count(
              store,
              "SELECT count(*) FROM trial_flags WHERE flag = 'dmesg' AND detail = 'hung task'"
                  + " AND trial_id = "
                  + trialId));
      assertEquals(
          1, count(store, "SELECT count(*) FROM trials WHERE status = 'ok' AND id = " + trialId));
      assertEquals(
          1,
          count(
              store,
              "SELECT count(*) FROM trial_attempts WHERE status = 'ok' AND attempt = 1"
                  + " AND started_at = '2024-05-01T12:00:00.000Z' AND trial_id = "
                  + trialId));
      assertEquals(
          1,
          count(
              store,
              "SELECT count(*) FROM events WHERE kind = 'trial'"
                  + " AND message = '[1/2] bs=1M rep 1: 2.500 s' AND experiment_id = "
                  + id));
      assertEquals(0, count(store, "SELECT count(*) FROM trials WHERE status = 'running'"));
      List<Long> left = store.unfinishedTrials(id).stream().map(TrialRef::trialId).toList();
      assertFalse(left.contains(trialId), "the kept trial does not run again");
      assertEquals(1, left.size());
      assertEquals(List.of(), store.importKeptTrials(id));
      assertEquals(1, count(store, "SELECT count(*) FROM trial_attempts"));
      assertEquals(1, count(store, "SELECT count(*) FROM events"));
    }
  }

  @Test
  void aSideFileOfTheFirstFormatIsStoredWithoutAttemptsOrEvent() throws Exception {
    Path db = dir.resolve("t.db");
    try (JdbcResultStore store = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      long id =
          store.createExperiment(
              experiment("old", 1, 0, List.of(cell(1, "bs", "1M"))), Fixtures.TOOL_VERSION);
      long trialId = store.unfinishedTrials(id).get(0).trialId();
      Path file = KeptTrials.beside(db).dir().resolve(id + "-" + trialId + ".json");
      Files.createDirectories(file.getParent());
      Files.writeString(
          file,
          "{\"format\": 1, \"experimentId\": "
              + id
              + ", \"trialId\": "
              + trialId
              + ", \"keptAt\": \"2024-05-01T12:00:00.000Z\", \"firstError\": \"x\","
              + " \"result\": {\"status\": \"OK\", \"workloadSeconds\": 1.0,"
              + " \"samples\": [{\"job\": \"all\", \"metric\": \"seconds\", \"value\": 1.0,"
              + " \"unit\": \"s\"}], \"settings\": []}}");

      List<String> lines = store.importKeptTrials(id);

      assertTrue(lines.get(0).startsWith("stored trial " + trialId + " (ok)"), lines.get(0));
      assertEquals(1, count(store, "SELECT count(*) FROM samples WHERE trial_id = " + trialId));
      assertEquals(0, count(store, "SELECT count(*) FROM trial_attempts"));
      assertEquals(0, count(store, "SELECT count(*) FROM events"));
    }
  }

  @Test
  void aSideFileWhoseTrialIsAlreadyStoredIsDroppedNotStoredTwice() throws Exception {
    Path db = dir.resolve("t.db");
    try (JdbcResultStore store = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      long id =
          store.createExperiment(
              experiment("twice", 1, 0, List.of(cell(1, "bs", "1M"))), Fixtures.TOOL_VERSION);
      long trialId = store.unfinishedTrials(id).get(0).trialId();
      KeptTrials.beside(db)
          .keep(
              KeptTrials.KeptTrial.of(
                  id,
                  "2024-05-01T12:00:00.000Z",
                  "x",
                  new TrialCommit(
                      trialId,
                      measured(),
                      List.of(new Attempt(T0, T0, Attempt.Status.OK, null)),
                      "line",
                      OptionalLong.empty())));
      store.commitTrial(TrialCommit.of(trialId, Fixtures.gib64(16)));

      List<String> lines = store.importKeptTrials(id);

      assertTrue(lines.get(0).startsWith("trial already stored: " + trialId), lines.get(0));
      assertEquals(8, count(store, "SELECT count(*) FROM samples WHERE trial_id = " + trialId));
      assertEquals(0, count(store, "SELECT count(*) FROM trial_attempts"));
      assertEquals(0, count(store, "SELECT count(*) FROM events"));
      assertFalse(Files.exists(dir.resolve("t.db.pending")));
    }
  }

  @Test
  void aTrialADatabaseGoneReadOnlyRefusesIsKeptAsideToo() throws Exception {
    Path db = dir.resolve("t.db");
    long id;
    long trialId;
    try (JdbcResultStore store = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      id =
          store.createExperiment(
              experiment("ro", 1, 0, List.of(cell(1, "bs", "1M"))), Fixtures.TOOL_VERSION);
      trialId = store.unfinishedTrials(id).get(0).trialId();
      store.startTrial(trialId);
      ((SqliteTransactions) store.transactions())
          .autocommit(c -> c.createStatement().execute("PRAGMA query_only = ON"));
      TrialCommit commit =
          new TrialCommit(
              trialId,
              measured(),
              List.of(new Attempt(T0, T0.plusSeconds(3), Attempt.Status.OK, null)),
              "[1/1] bs=1M rep 1: 2.500 s",
              OptionalLong.empty());

      TunelabException e = assertThrows(TunelabException.class, () -> store.commitTrial(commit));

      // Not even the trial's experiment can be read now: the side file is named without it.
      Path side = dir.resolve("t.db.pending").resolve("unknown-" + trialId + ".json");
      assertEquals(TunelabException.HOST_REFUSED, e.exitCode(), e.getMessage());
      assertTrue(
          e.getMessage()
              .contains(
                  "(opened read-only); the trial's measurements are kept in "
                      + side
                      + ": make the database writable, then `tunelab resume`"),
          e.getMessage());
      assertTrue(Files.exists(side));
    }

    try (JdbcResultStore store = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      List<String> lines = store.importKeptTrials(id);

      assertEquals(1, lines.size(), lines.toString());
      assertEquals(
          1, count(store, "SELECT count(*) FROM trials WHERE status = 'ok' AND id = " + trialId));
    }
  }

  @Test
  void theReserveIsGivenBackWhenTheRunEnds() throws Exception {
    Path db = dir.resolve("t.db");
    try (JdbcResultStore store = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      assertTrue(store.reserveForKeptTrials());
      assertTrue(Files.exists(dir.resolve("t.db.pending/.reserve")));
    }
    assertFalse(Files.exists(dir.resolve("t.db.pending")));
  }
}
