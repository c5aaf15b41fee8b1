package io.tunelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.store.ExperimentQueue.Entry;
import io.tunelab.store.ExperimentQueue.Worker;
import io.tunelab.testing.Cli;
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

  @Test
  void statusPrintsEachRowsStateTestbedAndLease() {
    String text =
        QueueText.render(
            List.of(
                new Entry(2, "iscsi", "nightly", "claimed", "running", "bed1", "vm1:7", 52_400L, 1),
                new Entry(3, "iscsi", "nightly", "queued", "planned", null, null, null, 0),
                new Entry(
                    4, "iscsi", "nightly", "claimed", "running", "bed2", "vm2:9", -3_100L, 2)),
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

        workers:
          vm1:7  queue nightly  testbed bed1  running experiment 2  seen 2026-12-02T10:00:00Z, lease 52 s left
          vm2:9  queue nightly  testbed bed2  stopped  seen 2026-12-02T09:00:00Z
        """,
        text);
  }
}
