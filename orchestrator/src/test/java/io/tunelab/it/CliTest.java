package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Cli;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Commands that need no root: help, version, plan, query's read-only connection. */
class CliTest {
  @TempDir Path dir;

  @Test
  void everyCommandHasHelpAndThereIsAVersion() {
    for (String command :
        new String[] {
          "run", "plan", "resume", "status", "restore", "query", "report", "compare", "export",
          "hosts"
        }) {
      Cli.Result r = Cli.tunelab(command, "--help");
      assertEquals(0, r.code(), command + ": " + r.all());
      assertTrue(r.out().contains("Usage: tunelab " + command), r.out());
    }
    Cli.Result v = Cli.tunelab("--version");
    assertEquals(0, v.code());
    assertTrue(v.out().matches("(?s)tunelab \\d+\\.\\d+.*"), v.out());
  }

  @Test
  void planShowsCellsAndTrialsAndTouchesNothing() {
    Path db = dir.resolve("never.db");
    Cli.Result r =
        Cli.tunelab(
            "plan",
            Lab.root().resolve("matrices/quickstart.yaml").toString(),
            "--db",
            db.toString());
    // plan has no --db: an unknown option is bad usage
    assertEquals(2, r.code(), r.all());
    r = Cli.tunelab("plan", Lab.root().resolve("matrices/quickstart.yaml").toString());
    assertEquals(0, r.code(), r.all());
    assertTrue(
        r.out().startsWith("quickstart: 6 cells x 3 repetitions (+0 warm-up) = 18 trials"),
        r.out());
    assertTrue(r.out().contains("local.block.${dev}.read_ahead_kb = 2048"), r.out());
    assertFalse(Files.exists(db));
  }

  @Test
  void badUsageExitsTwoWithoutStackTrace() {
    Cli.Result r = Cli.tunelab("run");
    assertEquals(2, r.code());
    assertFalse(r.all().contains("at io.tunelab"), r.all());
    r =
        Cli.tunelab(
            "run", dir.resolve("missing.yaml").toString(), "--db", dir.resolve("x.db").toString());
    assertEquals(2, r.code());
    assertTrue(r.err().contains("missing.yaml"), r.err());
    assertFalse(Files.exists(dir.resolve("x.db")));
  }
}
