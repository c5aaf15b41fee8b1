package io.tunelab.store.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tunelab.TunelabException;
import io.tunelab.store.Fixtures;
import io.tunelab.store.ReportData;
import io.tunelab.store.ReportData.Cell;
import io.tunelab.store.ReportData.Trial;
import io.tunelab.store.ResultReader;
import io.tunelab.store.TrialCounts;
import io.tunelab.store.TrialStatus;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteReportLoaderTest {
  @TempDir Path dir;

  @Test
  void loadsTheAggregateJobWithEveryTrialByRepetition() {
    Path db = dir.resolve("r.db");
    long[] ids;
    try (JdbcResultStore store = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      ids = Fixtures.readaheadStudy(store);
    }
    try (ResultReader store = JdbcResultStore.openReadOnly(db)) {
      ReportData data = store.report(ids[1]);

      assertEquals("all", data.job());
      assertEquals(List.of("case", "bs"), data.paramNames());
      assertEquals(new TrialCounts(15, 1, 0, 0, 0), data.counts());
      assertEquals(List.of(new ReportData.Host("server", "srv1", "6.6.0")), data.hosts());
      Cell last = data.cells().get(3);
      assertEquals("case=ra-2M/bs=32M", last.label());
      assertEquals(List.of(0, 1, 2, 3), last.trials().stream().map(Trial::rep).toList());
      assertEquals(true, last.trials().get(0).warmup());
      assertEquals(TrialStatus.FAILED, last.trials().get(3).status());
      assertEquals(null, last.trials().get(3).seconds());
      assertEquals(15.125, last.trials().get(1).seconds());
      assertEquals(2, last.stats().get("mib_per_s").n());
    }
  }

  @Test
  void anUnknownExperimentIsBadInput() {
    Path db = dir.resolve("r.db");
    JdbcResultStore.open(db).close();
    try (ResultReader store = JdbcResultStore.openReadOnly(db)) {
      TunelabException e = assertThrows(TunelabException.class, () -> store.report(99));

      assertEquals(TunelabException.BAD_INPUT, e.exitCode());
      assertEquals("no experiment 99", e.getMessage());
    }
  }
}
