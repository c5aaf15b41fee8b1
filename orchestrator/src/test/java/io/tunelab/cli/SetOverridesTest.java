package io.tunelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.MatrixLoader;
import io.tunelab.plan.ExperimentPlan;
import io.tunelab.store.StoredExperiment;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.testing.Cli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --set NAME=VALUE} on the command line: {@code plan} shows the matrix it gives, a name or
 * value the matrix cannot take exits 2 before anything is touched, and the store keeps the
 * overrides so that the stored matrix loads again as it ran and its report names them.
 */
class SetOverridesTest {
  private static final String MATRIX =
      """
      name: site
      params:
        disk: sdb
        total: 1GiB
      matrix:
        local.block.${disk}.read_ahead_kb: [128, 2048]
        bs: [1M, 64K]
      repeat: 3
      workload:
        dd: {input: "/dev/${disk}", output: /dev/null, bs: "${bs}", total: "${total}"}
      """;

  @TempDir Path dir;

  private Path matrix() throws IOException {
    return Files.writeString(dir.resolve("site.yaml"), MATRIX);
  }

  @Test
  void planShowsTheMatrixTheOverridesGive() throws IOException {
    Cli.Result r =
        Cli.tunelab(
            "plan",
            matrix().toString(),
            "--set",
            "disk=vdb",
            "--set",
            "bs=4M",
            "--set",
            "repeat=1");

    assertEquals(0, r.code(), r.all());
    assertEquals(
        """
        site: 2 cells x 1 repetitions (+0 warm-up) = 2 trials, order sequential, seed 0
        set: disk=vdb bs=4M repeat=1
        transitions                   sequential         shuffle  fewest-changes
          cell steps run                       0               0               0
          knob writes                          2               2               2
            queue-freezing                     0               0               0
          kernels booted                       0               0               0
             1  read_ahead_kb=128/bs=4M
                  local.block.vdb.read_ahead_kb = 128
             2  read_ahead_kb=2048/bs=4M
                  local.block.vdb.read_ahead_kb = 2048
        """,
        r.out());
  }

  @Test
  void anUnknownNameExits2WithASuggestionAndRunTouchesNothing() throws IOException {
    Path db = dir.resolve("tunelab.db");
    Cli.Result r =
        Cli.tunelab("run", matrix().toString(), "--db", db.toString(), "--set", "disc=vdb");

    assertEquals(2, r.code(), r.all());
    assertEquals(
        dir.resolve("site.yaml")
            + ":1:1: --set disc: 'disc' is neither a params: entry, an axis nor one of repeat,"
            + " warmup, seed, order; did you mean 'disk'?\n",
        r.err());
    assertFalse(Files.exists(db), "run created the database before refusing the matrix");
  }

  @Test
  void aMalformedOrRepeatedSetExits2() throws IOException {
    Cli.Result noValue = Cli.tunelab("plan", matrix().toString(), "--set", "repeat");
    assertEquals(2, noValue.code(), noValue.all());
    assertEquals("tunelab: --set repeat: give NAME=VALUE, e.g. --set total=64MiB\n", noValue.err());

    Cli.Result twice =
        Cli.tunelab("plan", matrix().toString(), "--set", "bs=1M", "--set", "bs=64K");
    assertEquals(2, twice.code(), twice.all());
    assertEquals("tunelab: --set bs is given twice: give it once\n", twice.err());
  }

  @Test
  void badValuesExit2WithTheirReason() throws IOException {
    Cli.Result r =
        Cli.tunelab("plan", matrix().toString(), "--set", "order=random", "--set", "disk=../sda");

    assertEquals(2, r.code(), r.all());
    String m = dir.resolve("site.yaml").toString();
    assertEquals(
        m
            + ":1:1: --set order: 'random' is not an order (orders: sequential, shuffle, fewest-changes,"
            + " rounds)\n"
            + m
            + ":6:3: matrix.local.block.${disk}.read_ahead_kb: ${disk} is '../sda' (--set disk):"
            + " a value put into a knob name may not hold '/' or '..'\n",
        r.err());
  }

  @Test
  void theStoreKeepsTheOverridesTheStoredMatrixLoadsAsItRanAndReportShowsThem() throws IOException {
    Map<String, String> set = new LinkedHashMap<>();
    set.put("total", "64MiB");
    set.put("bs", "64K");
    Matrix ran = MatrixLoader.load("site.yaml", MATRIX, path -> "", set);
    StoredExperiment stored;
    Path db = dir.resolve("t.db");
    try (JdbcResultStore store = JdbcResultStore.open(db)) {
      long id = store.createExperiment(ExperimentPlan.of(ran), "test");
      stored = store.findExperiment(Long.toString(id)).orElseThrow();
    }

    assertEquals(List.copyOf(set.entrySet()), List.copyOf(stored.overrides().entrySet()));
    assertEquals(MATRIX, stored.matrixYaml());
    Matrix again =
        MatrixLoader.load(stored.matrixPath(), stored.matrixYaml(), path -> "", stored.overrides());
    assertEquals(ran.params(), again.params());
    assertEquals(ran.axes().get(1).values(), again.axes().get(1).values());
    assertEquals(List.of("64K"), again.axes().get(1).values());
    assertTrue(again.workload().toString().contains("64MiB"), again.workload().toString());
    Cli.Result report = Cli.tunelab("report", Long.toString(stored.id()), "--db", db.toString());
    assertTrue(report.out().contains("\nset: total=64MiB bs=64K\n"), report.all());
  }
}
