package io.tunelab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tunelab.report.Studies;
import io.tunelab.store.Fixtures;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.testing.Cli;
import io.tunelab.testing.GoldenFiles;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A warning that holds for every metric of a report is said once, after the others. */
class WarningsOnceTest {
  @TempDir Path dir;

  @Test
  void theRepetitionCountIsSaidOnceWhenTheMetricsDifferInOtherWarnings() {
    String db = dir.resolve("nfs.db").toString();
    long id;
    try (JdbcResultStore store = JdbcResultStore.open(Path.of(db), Fixtures.CLOCK)) {
      id = Studies.nfs(store)[0];
    }
    Cli.Result r =
        Cli.tunelab(
            "report", "--db", db, String.valueOf(id), "--metric", "seconds,mib_per_s,bytes");
    assertEquals(0, r.code(), r.all());
    GoldenFiles.assertMatches("report/nfs-warnings-once.txt", r.out());
    assertEquals(1, r.out().split("too few repetitions to judge outliers", -1).length - 1, r.out());
  }
}
