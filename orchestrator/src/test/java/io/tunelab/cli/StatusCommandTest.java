package io.tunelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.Fixtures;
import io.tunelab.store.TrialCommit;
import io.tunelab.store.TrialRef;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.testing.Cli;
import io.tunelab.testing.TestTime;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tunelab status} beside a run that another thread (its own connection) is writing. */
class StatusCommandTest {
  @TempDir Path dir;

  @Test
  void statusShowsTheProgressOfAnExperimentRunningElsewhere() throws Exception {
    Path db = dir.resolve("t.db");
    CountDownLatch inSecondTrial = new CountDownLatch(1);
    CountDownLatch statusRead = new CountDownLatch(1);
    Thread run =
        new Thread(
            () -> {
              try (JdbcResultStore store = JdbcResultStore.open(db)) {
                long id =
                    store.createExperiment(
                        Fixtures.experiment("live", 2, 0, List.of(Fixtures.cell(1, "bs", "1M"))),
                        "test");
                store.setExperimentStatus(id, ExperimentStatus.RUNNING);
                store.recordEvent(id, "start", null, "run started: 2 trial(s) to run");
                List<TrialRef> trials = store.unfinishedTrials(id);
                store.startTrial(trials.get(0).trialId());
                store.commitTrial(TrialCommit.of(trials.get(0).trialId(), Fixtures.gib64(16)));
                store.recordEvent(id, "trial", null, "[1/2] bs=1M rep 1: 16.000 s");
                store.startTrial(trials.get(1).trialId());
                inSecondTrial.countDown();
                statusRead.await(TestTime.seconds(30), TimeUnit.SECONDS);
                store.commitTrial(TrialCommit.of(trials.get(1).trialId(), Fixtures.gib64(16)));
                store.setExperimentStatus(id, ExperimentStatus.FINISHED);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    run.start();
    try {
      assertTrue(inSecondTrial.await(TestTime.seconds(30), TimeUnit.SECONDS));

      Cli.Result r = Cli.tunelab("status", "--db", db.toString());

      assertEquals(0, r.code(), r.all());
      assertTrue(
          r.out().contains("experiment 1 live: running, 1/2 trials done (0 failed)"), r.out());
      assertTrue(r.out().contains("  now:        trial 2/2 bs=1M rep 2, started "), r.out());
      assertTrue(r.out().contains("  eta:        "), r.out());
      assertTrue(r.out().contains("(mean trial "), r.out());
      assertTrue(
          r.out().contains("  last event: ")
              && r.out().contains(" trial: [1/2] bs=1M rep 1: 16.000 s"),
          r.out());

      Cli.Result j = Cli.tunelab("status", "--db", db.toString(), "--format", "json");
      assertEquals(0, j.code(), j.all());
      JsonNode e = new ObjectMapper().readTree(j.out()).get("experiments").get(0);
      assertEquals("live", e.get("name").asText(), j.out());
      assertEquals("running", e.get("status").asText(), j.out());
      assertEquals(1, e.get("ok").asInt(), j.out());
      JsonNode p = e.get("progress");
      assertEquals(2, p.get("trials").asInt(), j.out());
      assertEquals(1, p.get("done").asInt(), j.out());
      assertTrue(p.get("eta_seconds").isNumber(), j.out());
      assertEquals(2, p.get("current").get("rep").asInt(), j.out());
      assertEquals("bs=1M", p.get("current").get("cell").asText(), j.out());
      assertEquals("[1/2] bs=1M rep 1: 16.000 s", p.get("last_event").get("message").asText());
      assertEquals(0, e.get("booting").size(), j.out());
    } finally {
      statusRead.countDown();
      run.join();
    }
    Cli.Result after = Cli.tunelab("status", "--db", db.toString());
    assertFalse(after.out().contains("now:"), "a finished experiment has no progress block");
    JsonNode done =
        new ObjectMapper()
            .readTree(Cli.tunelab("status", "--db", db.toString(), "--format", "json").out())
            .get("experiments")
            .get(0);
    assertEquals("finished", done.get("status").asText());
    assertTrue(done.get("progress").isNull(), done.toString());
    Cli.Result bad = Cli.tunelab("status", "--db", db.toString(), "--format", "yaml");
    assertEquals(2, bad.code(), bad.all());
    assertTrue(bad.err().contains("unknown format yaml (expected table or json)"), bad.all());
  }
}
