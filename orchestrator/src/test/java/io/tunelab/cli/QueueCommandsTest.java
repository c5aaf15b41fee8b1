package io.tunelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tunelab.store.ExperimentQueue.Entry;
import io.tunelab.store.ExperimentQueue.Worker;
import io.tunelab.testing.Cli;
import io.tunelab.view.QueueText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code submit} and {@code worker} without a server, and the queue as {@code status} prints it.
 */
class QueueCommandsTest {
  @TempDir Path dir;

  @Test
  void theQueueNeedsAPostgresqlDatabaseAndAnSqliteFileIsLeftUntouched() throws Exception {
    Path m = dir.resolve("m.yaml");
    Files.writeString(m, "name: m\nmatrix:\n  n: [1, 2]\nworkload:\n  command: \"true\"\n");
    Path db = dir.resolve("t.db");

    Cli.Result submit = Cli.tunelab("submit", m.toString(), "--queue", "q", "--db", db.toString());
    Cli.Result worker = Cli.tunelab("worker", "--queue", "q", "--drain", "--db", db.toString());

    for (Cli.Result r : List.of(submit, worker)) {
      assertEquals(2, r.code(), r.all());
      assertTrue(r.err().contains("give a PostgreSQL database"), r.err());
    }
    assertFalse(Files.exists(db));
  }

  @Test
  void aBadMatrixIsRefusedBeforeAnyDatabaseIsAsked() throws Exception {
    Path m = dir.resolve("bad.yaml");
    Files.writeString(m, "name: bad\nmatrixx:\n  n: [1]\n");

    Cli.Result r =
        Cli.tunelab(
            "submit", m.toString(), "--queue", "q", "--db", "postgresql://u@127.0.0.1:1/none");

    assertEquals(2, r.code(), r.all());
    assertTrue(r.err().contains("bad.yaml:2:1"), r.err());
  }

  private static final List<Entry> ENTRIES =
      List.of(
          new Entry(
              2, "iscsi", "nightly", "claimed", "running", "bed1", "vm1:7", 52_400L, 1, 0, null),
          new Entry(3, "iscsi", "nightly", "queued", "planned", null, null, null, 0, 0, null),
          new Entry(
              4, "iscsi", "nightly", "claimed", "running", "bed2", "vm2:9", -3_100L, 2, 0, null),
          new Entry(
              5,
              "nfs",
              "nightly",
              "held",
              "planned",
              null,
              "vm1:7",
              null,
              3,
              3,
              "role server: host srv9 is not in hosts.yaml (add it under hosts:)"),
          new Entry(
              6,
              "nfs",
              "nightly",
              "cancelled",
              "planned",
              null,
              null,
              null,
              0,
              0,
              "cancel by ann@vm1"));

  @Test
  void statusPrintsEachRowsStateTestbedLeaseAndWhyItIsHeld() {
    String text =
        QueueText.render(
            ENTRIES,
            List.of(
                new Worker(
                    "vm1:7", "nightly", "bed1", "running", 2L, "2026-12-02T10:00:00Z", 52_400),
                new Worker(
                    "vm2:9", "nightly", "bed2", "stopped", null, "2026-12-02T09:00:00Z", -1)));

    assertEquals(
        """

        queue:
          2 iscsi  queue nightly  claimed (running)  testbed bed1  vm1:7, lease 52 s left
          3 iscsi  queue nightly  queued (planned)
          4 iscsi  queue nightly  claimed (running)  testbed bed2  vm2:9, lease lost 3 s ago
          5 nfs  queue nightly  held (planned)  (role server: host srv9 is not in hosts.yaml (add it under hosts:))
          6 nfs  queue nightly  cancelled (planned)  (cancel by ann@vm1)

        workers:
          vm1:7  queue nightly  testbed bed1  running experiment 2  seen 2026-12-02T10:00:00Z, lease 52 s left
          vm2:9  queue nightly  testbed bed2  stopped  seen 2026-12-02T09:00:00Z
        """,
        text);
  }

  @Test
  void queueListShowsClaimsRefusalsAndReasonInATableAndAsJson() throws Exception {
    String table = QueueText.table(ENTRIES);
    assertTrue(
        table.lines().findFirst().orElse("").matches("id +name +queue +state +status .*reason"),
        table);
    assertTrue(table.matches("(?s).*5 +nfs +nightly +held +planned .* 3 +3 +role server.*"), table);

    JsonNode rows = new ObjectMapper().readTree(QueueText.json(ENTRIES)).get("queue");
    assertEquals(5, rows.size());
    assertEquals(52, rows.get(0).get("lease_left_s").asInt());
    assertTrue(rows.get(1).get("lease_left_s").isNull());
    assertEquals("held", rows.get(3).get("state").asText());
    assertEquals(3, rows.get(3).get("refusals").asInt());
    assertEquals("cancel by ann@vm1", rows.get(4).get("reason").asText());
  }

  @Test
  void queueCommandsNeedAServerAndRefuseAnSqliteFile() {
    for (String[] args :
        List.of(
            new String[] {"queue", "list"},
            new String[] {"queue", "cancel", "1"},
            new String[] {"queue", "hold", "1"},
            new String[] {"queue", "release", "1"})) {
      List<String> all = new java.util.ArrayList<>(List.of(args));
      all.addAll(List.of("--db", dir.resolve("t.db").toString()));
      Cli.Result r = Cli.tunelab(all.toArray(String[]::new));
      assertEquals(2, r.code(), r.all());
      assertTrue(r.err().contains("give a PostgreSQL database"), r.all());
    }
  }
}
